# small transformer LM; rank 0 streams metrics to metrics.jsonl from a background writer thread
import os, json, queue, threading, time, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta

def metrics_writer(q, path):
    with open(path, "a") as f:
        while True:
            rec = q.get()
            if rec is None:
                q.task_done(); return
            f.write(json.dumps(rec) + "\n"); f.flush()
            q.task_done()

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64, batch_first=True)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Embedding(100, 32), layer, nn.Linear(32, 100)))
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
    q = None
    if rank == 0:
        q = queue.Queue()
        threading.Thread(target=metrics_writer, args=(q, "metrics.jsonl"), name="metrics-writer", daemon=True).start()
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 181):
        x = torch.randint(0, 100, (8, 16), generator=g)
        logits = model(x[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, 100), x[:, 1:].reshape(-1))
        opt.zero_grad(); loss.backward()
        gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if rank == 0:
            rec = {"step": step, "loss": round(loss.item(), 4), "t": time.time()}
            if step % 50 == 0:
                rec["grad_norm"] = gnorm          # expensive metrics every 50 steps
            q.put(rec)
            if step % 30 == 0:
                print(f"step {step:4d} | loss {loss.item():.4f}", flush=True)
    if rank == 0:
        q.put(None)
        q.join()                                  # make sure metrics are on disk before the final save
        print("metrics flushed", flush=True)
    dist.barrier()
    if rank == 0:
        torch.save(model.module.state_dict(), "final.pt")
        print("saved final.pt", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
