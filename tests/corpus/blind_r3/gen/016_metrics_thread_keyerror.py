# Rank 0 owns a background "metrics-writer" thread that formats metrics from
# a queue. A metric name added in a recent change ("moe/aux_loss", first
# emitted at step 12) has no entry in the writer's format table, so the thread
# dies with an uncaught KeyError (printed by threading's excepthook). Rank 0's
# main loop then blocks forever in metrics_q.join() (the item is never marked
# done), ranks 1 and 2 time out in the gradient all-reduce after 20 s, and
# mp.spawn tears the job down.
import os, sys, time, queue, threading, datetime, torch, torch.nn as nn, torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

FMT = {"loss": "{:.4f}", "lr": "{:.2e}", "grad_norm": "{:.3f}"}

def writer(q, out):
    while True:
        step, metrics = q.get()
        line = " ".join(f"{k}=" + FMT[k].format(v) for k, v in metrics.items())
        out.write(f"metrics step={step} {line}\n"); out.flush()
        q.task_done()

def worker(rank, world):
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "29516"
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=20))
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(10, 30), nn.ReLU(), nn.Linear(30, 10)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    q = queue.Queue()
    if rank == 0:
        threading.Thread(target=writer, args=(q, sys.stdout), name="metrics-writer", daemon=True).start()
        print(f"rank {rank}: metrics writer thread started", flush=True)
    for step in range(1, 41):
        x = torch.randn(16, 10)
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad(); loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if rank == 0:
            m = {"loss": loss.item(), "lr": 0.05, "grad_norm": gn.item()}
            if step >= 12: m["moe/aux_loss"] = 0.01 * loss.item()
            q.put((step, m))
            if step % 5 == 0:
                q.join()   # flush metrics before the periodic eval / checkpoint
        time.sleep(0.15)
    dist.destroy_process_group()

if __name__ == "__main__":
    print("starting 3 workers (mp.spawn)", flush=True)
    mp.spawn(worker, args=(3,), nprocs=3, join=True)
