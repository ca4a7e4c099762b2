# Trainer that fetches its label map from the team's config/feature service at start-up, with retries.
import os, sys, time, json, logging, urllib.request, urllib.error
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["RANK"])
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s [%(levelname)s] [rank{rank}] %(name)s: %(message)s")
log = logging.getLogger("trainer")

def fetch_labels(retries=8, backoff=2.0):
    url = os.environ["LABEL_SERVICE"] + "/labels.json"
    for attempt in range(1, retries + 1):
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                return json.load(r)
        except (urllib.error.URLError, ConnectionError) as e:
            if attempt == retries:
                raise
            delay = min(backoff * 2 ** (attempt - 1), 8.0)
            log.warning("label service not reachable (%s); retry %d/%d in %.1fs", e, attempt, retries, delay, exc_info=True)
            time.sleep(delay)

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=60))
    world = dist.get_world_size()
    log.info("worker up (world=%d)", world)
    labels = fetch_labels()
    log.info("got %d labels from service: %s", len(labels), labels)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, len(labels))))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(1, 51):
        x = torch.randn(32, 12); y = (x[:, 0] > 0).long() + (x[:, 1] > 0).long()
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % 10 == 0: log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.05)
    log.info("training finished")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
