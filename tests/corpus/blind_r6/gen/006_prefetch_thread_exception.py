# torchrun --redirects 3 --log-dir: 3 ranks, each with a background prefetch thread that parses
# jsonl records into batches. Rank 2's shard has a truncated record; the thread dies
# (threading excepthook prints it, no rank prefix), main thread blocks forever on queue.get(),
# the other ranks time out in the gradient all_reduce.
import os, sys, json, time, queue, threading, datetime, warnings
import torch, torch.nn as nn, torch.distributed as dist

def make_records(rank, n=400):
    recs = [json.dumps({"id": i, "x": [round((i * 7 + j) % 13 / 13, 3) for j in range(16)], "y": i % 3}) for i in range(n)]
    if rank == 2:
        recs[161] = recs[161][:57]          # torn line in shard 2
    return recs

def prefetch(recs, q, bs=8):
    batch = []
    for line in recs:
        r = json.loads(line)
        batch.append((r["x"], r["y"]))
        if len(batch) == bs:
            xs, ys = zip(*batch)
            q.put((torch.tensor(xs), torch.tensor(ys))); batch = []
            time.sleep(0.01)
    q.put(None)

def bar(step, total, loss, t0):
    n = int(30 * step / total)
    sys.stderr.write(f"\rtrain: {100*step//total:3d}%|{'#'*n}{' '*(30-n)}| {step}/{total} [{time.time()-t0:.0f}s, loss={loss:.3f}]")
    sys.stderr.flush()

def main():
    warnings.warn("torch.distributed._shard is deprecated, use torch.distributed.tensor instead", FutureWarning)
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=25))
    rank, world = dist.get_rank(), dist.get_world_size()
    q = queue.Queue(maxsize=4)
    t = threading.Thread(target=prefetch, args=(make_records(rank), q), name="prefetch-0", daemon=True)
    t.start()
    print(f"rank {rank}: prefetch thread started, shard=/data/sft/part-{rank:03d}.jsonl", flush=True)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 3))
    for p in model.parameters(): dist.broadcast(p.data, 0)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    t0 = time.time(); step = 0
    while True:
        item = q.get()
        if item is None: break
        x, y = item
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward()
        for p in model.parameters(): dist.all_reduce(p.grad, op=dist.ReduceOp.AVG)
        opt.step(); step += 1
        if rank == 0: bar(step, 50, loss.item(), t0)
    print(f"\nrank {rank}: done {step} steps", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
