# 2-rank fine-tune. To save host RAM only rank 0 materialises the model; the other ranks build it
# on the meta device and receive the weights from rank 0 through DDP's initial state broadcast.
import os, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s [%(process)d] %(message)s")
log = logging.getLogger("ft")

class TinyEncoder(nn.Module):
    def __init__(self, d=64, max_len=128):
        super().__init__()
        self.emb = nn.Embedding(2000, d)
        self.layer = nn.TransformerEncoderLayer(d, 4, 128, batch_first=True)
        self.head = nn.Linear(d, 5)
        self.pos_table = torch.randn(max_len, d) * 0.02   # learned-free positional table
    def forward(self, ids):
        h = self.emb(ids) + self.pos_table[: ids.size(1)]
        return self.head(self.layer(h).mean(1))

dist.init_process_group("gloo", timeout=timedelta(seconds=20))
rank = dist.get_rank()
if rank == 0:
    model = TinyEncoder()
    log.info("rank 0: materialised model (%d params)", sum(p.numel() for p in model.parameters()))
else:
    with torch.device("meta"):
        model = TinyEncoder()
    model = model.to_empty(device="cpu")
    log.info("rank %d: built model on meta device, waiting for weights from rank 0", rank)
model = DDP(model)          # broadcasts parameters and registered buffers from rank 0
log.info("rank %d: DDP ready", rank)
opt = torch.optim.AdamW(model.parameters(), 5e-4)
for step in range(1, 61):
    ids = torch.randint(0, 2000, (16, 48)); y = ids[:, 0] % 5
    loss = nn.functional.cross_entropy(model(ids), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 10 == 0: log.info("rank %d step %d loss %.4f", rank, step, loss.item())
log.info("rank %d finished", rank)
dist.destroy_process_group()
