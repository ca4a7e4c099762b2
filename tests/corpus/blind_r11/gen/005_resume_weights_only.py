# Fine-tuning job resumed from the last checkpoint of a previous run.
# Rank 0 reads the checkpoint and broadcasts the state to the other ranks.
import os, sys, logging, argparse, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

logging.basicConfig(level=logging.INFO, format="%(asctime)s - %(name)s - %(levelname)s - %(message)s", stream=sys.stdout)
log = logging.getLogger("finetune")

p = argparse.ArgumentParser()
p.add_argument("--resume", default=None)
p.add_argument("--steps", type=int, default=40)
args = p.parse_args()

def make_model():
    return nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    log.info("rank %d/%d started (pid %d)", rank, world, os.getpid())
    model = make_model()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    start = 0
    if args.resume:
        obj = [None]
        if rank == 0:
            log.info("loading checkpoint %s", args.resume)
            ckpt = torch.load(args.resume, map_location="cpu")
            obj = [ckpt]
        dist.broadcast_object_list(obj, src=0)
        ckpt = obj[0]
        model.load_state_dict(ckpt["model"]); opt.load_state_dict(ckpt["optimizer"])
        start = ckpt["step"]
        log.info("resumed from step %d", start)
    ddp = DDP(model)
    for step in range(start + 1, start + args.steps + 1):
        x = torch.randn(32, 20); y = (x[:, 0] > 0).long()
        loss = nn.functional.cross_entropy(ddp(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0: log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
