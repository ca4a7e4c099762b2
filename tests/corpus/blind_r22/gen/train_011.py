# 011: mp.spawn, 3 ranks, each resumes from its own optimizer/model shard file.
# Rank 2's shard was torn (truncated) by a previous job that died mid-write.
import os, sys, time, datetime, torch, torch.distributed as dist
import torch.multiprocessing as mp, torch.nn.functional as F
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model, batch
def say(rank, msg): print(f"[{datetime.datetime.now().isoformat(timespec='milliseconds')}] [proc {rank}] {msg}", flush=True)
def main(rank, world, ckdir):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="27110")
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=25))
    model = tiny_model(); opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    say(rank, "warming up data pipeline")
    time.sleep(0.5 + 0.4 * (2 - rank))     # rank 2 is ready first
    f = os.path.join(ckdir, f"shard_{rank:02d}-of-{world:02d}.pt")
    say(rank, f"loading {f}")
    st = torch.load(f, weights_only=True)
    model.load_state_dict(st["model"]); opt.load_state_dict(st["optim"])
    model = DDP(model)
    for step in range(st["step"], st["step"] + 15):
        x, y = batch(step, rank); loss = F.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step(); say(rank, f"step {step} loss {loss.item():.4f}")
    dist.destroy_process_group()
if __name__ == "__main__":
    mp.spawn(main, args=(3, sys.argv[1]), nprocs=3)
