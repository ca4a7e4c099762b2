# eval-time metrics gather; val set split unevenly across ranks
import os, json, time, sys
from datetime import timedelta
import torch, torch.distributed as dist
import torch.nn as nn

def jlog(**kw):
    kw.setdefault("ts", round(time.time(), 3))
    print(json.dumps(kw), flush=True)

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    for p in model.parameters():
        dist.broadcast(p.data, src=0)
    ddp = model
    opt = torch.optim.AdamW(ddp.parameters(), lr=3e-4)
    jlog(event="start", rank=rank, world_size=world, debug=os.environ.get("TORCH_DISTRIBUTED_DEBUG"))
    for step in range(1, 9):
        x = torch.randn(8, 16); y = torch.randint(0, 4, (8,))
        loss = nn.functional.cross_entropy(ddp(x), y)
        opt.zero_grad(); loss.backward()
        for p in model.parameters():          # manual gradient averaging
            dist.all_reduce(p.grad); p.grad /= world
        opt.step()
        if rank == 0:
            jlog(event="train", step=step, loss=round(loss.item(), 4))
        time.sleep(0.2)
    # validation: 45 samples, split by contiguous chunks of 16
    n_val = 45
    lo = rank * 16; hi = min(n_val, lo + 16)
    ddp.eval()
    with torch.no_grad():
        preds = ddp(torch.randn(hi - lo, 16)).argmax(-1)
    jlog(event="eval_local_done", rank=rank, n=int(preds.numel()))
    bufs = [torch.empty_like(preds) for _ in range(world)]
    dist.all_gather(bufs, preds)
    allp = torch.cat(bufs)
    if rank == 0:
        jlog(event="eval", n=int(allp.numel()), acc=float((allp == 0).float().mean()))
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
