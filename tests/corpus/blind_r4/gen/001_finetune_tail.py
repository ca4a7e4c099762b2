"""Sequence-classifier finetune. Each worker takes a contiguous slice of the
training table; the slices are whatever the export job produced."""
import logging, os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist, torch.nn as nn

RANK = int(os.environ["RANK"]); WORLD = int(os.environ["WORLD_SIZE"])
logging.basicConfig(
    level=logging.INFO, stream=sys.stdout,
    format=f"%(asctime)s | %(levelname)-7s | %(name)s | [r{RANK}] %(message)s")
log = logging.getLogger("ft.trainer")

BATCH, SEQ, FEAT = 8, 4, 6
SLICES = [96, 96, 92]     # rows per worker from the export

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(FEAT, 16); self.head = nn.Linear(16 * SEQ, 3)
    def forward(self, flat):
        x = flat.view(BATCH, SEQ, FEAT)           # rows arrive flattened
        h = torch.tanh(self.proj(x))
        return self.head(h.reshape(BATCH, -1))

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    torch.manual_seed(RANK)
    n = SLICES[RANK]
    data = torch.randn(n, SEQ * FEAT); labels = torch.randint(0, 3, (n,))
    model = nn.parallel.DistributedDataParallel(Encoder())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    log.info("slice has %d rows -> %d batches", n, (n + BATCH - 1) // BATCH)
    for epoch in range(2):
        for b, i in enumerate(range(0, n, BATCH)):
            xb, yb = data[i:i + BATCH], labels[i:i + BATCH]
            loss = nn.functional.cross_entropy(model(xb), yb)
            opt.zero_grad(); loss.backward(); opt.step()
            if b % 4 == 0:
                log.info("epoch %d batch %d/%d loss=%.4f", epoch, b, (n + BATCH - 1) // BATCH, loss.item())
            time.sleep(0.05)
    log.info("done")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
