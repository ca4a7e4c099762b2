"""Batch inference with mp.spawn: each rank scores its requests, rank 0 gathers and writes JSON lines."""
import json, os, sys, time
import torch, torch.distributed as dist, torch.multiprocessing as mp
sys.path.insert(0, os.path.dirname(__file__))
from common import MLP

def emit(**kw):
    kw["ts"] = round(time.time(), 3)
    print(json.dumps(kw), flush=True)

def worker(rank, world, out):
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "58012"
    import datetime
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=40))
    torch.manual_seed(0); torch.set_num_threads(1)
    model = MLP().eval()
    emit(event="model_loaded", rank=rank, params=sum(p.numel() for p in model.parameters()))
    g = torch.Generator().manual_seed(7)
    reqs = [(i, int(torch.randint(8, 120, (1,), generator=g))) for i in range(200)]
    mine = reqs[rank::world]
    results = []
    with torch.no_grad():
        for n, (rid, length) in enumerate(mine):
            if length > 96:
                emit(level="warning", rank=rank, msg=f"request {rid} length {length} exceeds max_len 96, truncated")
            x = torch.randn(1, 32)
            p = model(x).softmax(-1)
            results.append({"id": rid, "label": int(p.argmax()), "score": round(float(p.max()), 4)})
            if n % 10 == 0:
                emit(event="progress", rank=rank, done=n + 1, total=len(mine))
    gathered = [None] * world
    dist.all_gather_object(gathered, results)
    if rank == 0:
        allr = sorted(sum(gathered, []), key=lambda r: r["id"])
        with open(out, "w") as f:
            for r in allr:
                f.write(json.dumps(r) + "\n")
        emit(event="done", rank=rank, n_predictions=len(allr), output=out)
    dist.barrier(); dist.destroy_process_group()
    emit(event="exit", rank=rank, status="ok")

if __name__ == "__main__":
    mp.spawn(worker, args=(4, sys.argv[1]), nprocs=4, join=True)
    print(json.dumps({"event": "all_workers_joined", "status": "ok"}))
