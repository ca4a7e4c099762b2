# 003: plain python processes, env:// init, each rank writes its own log file via
# logging (timestamps, rank in logger name). Rank 3 reads a shard whose record has
# a token id beyond the vocab -> tokenizer raises ValueError. Others block in allreduce.
import os, sys, json, time, logging, torch, torch.distributed as dist
import torch.nn.functional as F
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, format="[%(asctime)s][%(name)s][%(levelname)s] - %(message)s")
log = logging.getLogger(f"train.r{rank}")
VOCAB = 512
class Tokenizer:
    def __init__(self, vocab): self.vocab = vocab
    def encode_ids(self, ids):
        for i in ids:
            if i >= self.vocab:
                raise ValueError(f"token id {i} out of range for vocabulary of size {self.vocab}")
        return torch.tensor(ids)
def read_shard(path):
    with open(path) as f:
        for line in f: yield json.loads(line)
dist.init_process_group("gloo", init_method="env://", timeout=timedelta(seconds=25))
tok = Tokenizer(VOCAB)
emb = torch.nn.EmbeddingBag(VOCAB, 16)
model = DDP(torch.nn.Sequential(emb, torch.nn.Linear(16, 4)))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
shard = os.path.join(os.environ["DATA_DIR"], f"shard-{rank:05d}.jsonl")
log.info("reading %s", shard)
for step, rec in enumerate(read_shard(shard)):
    ids = tok.encode_ids(rec["ids"]).unsqueeze(0)
    loss = F.cross_entropy(model(ids), torch.tensor([rec["label"]]))
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 3 == 0: log.info("step %d | loss %.4f | tokens %d", step, loss.item(), ids.numel())
    time.sleep(0.2)
log.info("finished shard")
dist.destroy_process_group()
