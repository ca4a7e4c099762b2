# HEALTHY run: 2 nodes x 2 ranks, JSON-lines logs. Mixed precision (fp16
# autocast on CPU) with a dynamic GradScaler started at 2**24: the first few
# steps overflow and are skipped while the scale backs off -- normal warm-up,
# logged as warnings. Rank 0 saves a checkpoint at the end. Exit code 0.
import os, sys, json, time, datetime, torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def jl(**kw):
    sys.stdout.write(json.dumps({"time": time.strftime("%Y-%m-%dT%H:%M:%S"), **kw}) + "\n"); sys.stdout.flush()

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 10)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 24, growth_interval=50)
    g = torch.Generator().manual_seed(rank)
    jl(level="INFO", rank=rank, msg="starting", world_size=world, amp="fp16", init_scale=scaler.get_scale())
    for step in range(1, 41):
        x = torch.randn(32, 64, generator=g); y = (x[:, :10].argmax(1))
        with torch.autocast("cpu", dtype=torch.float16):
            loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); scaler.scale(loss).backward()
        before = scaler.get_scale(); scaler.step(opt); scaler.update(); after = scaler.get_scale()
        if after < before and rank == 0:
            jl(level="WARNING", rank=rank, step=step, msg="gradient overflow, skipping step; reducing loss scale",
               old_scale=before, new_scale=after)
        if step % 5 == 0:
            jl(level="INFO", rank=rank, step=step, loss=round(loss.item(), 4), scale=after)
        time.sleep(0.1)
    if rank == 0:
        os.makedirs(os.environ["CKPT"], exist_ok=True)
        p = os.path.join(os.environ["CKPT"], "final.pt"); torch.save(model.module.state_dict(), p)
        jl(level="INFO", rank=rank, msg="saved checkpoint", path=p)
    dist.barrier()
    jl(level="INFO", rank=rank, msg="done")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
