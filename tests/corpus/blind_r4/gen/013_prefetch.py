import logging, os, queue, threading, time
from datetime import timedelta
import torch, torch.distributed as dist, torch.nn as nn

rank = int(os.environ["RANK"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
log = logging.getLogger(f"worker.{rank}")

def records(rank):
    for i in range(200):
        rec = {"ids": list(range(i % 7 + 3)), "weight": 1.0}
        if rank == 1 and i == 41:
            rec["weight"] = None          # row with a missing weight column
        yield rec

def prefetch(q, rank):
    buf = []
    for rec in records(rank):
        w = rec["weight"] * 2.0
        buf.append(torch.full((16,), w) + len(rec["ids"]))
        if len(buf) == 4:
            q.put(torch.stack(buf)); buf = []
    q.put(None)

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    q = queue.Queue(maxsize=4)
    threading.Thread(target=prefetch, args=(q, rank), name="prefetch", daemon=True).start()
    model = nn.parallel.DistributedDataParallel(nn.Linear(16, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    step = 0
    while True:
        batch = q.get()
        if batch is None: break
        loss = model(batch).mean(); opt.zero_grad(); loss.backward(); opt.step(); step += 1
        if step % 5 == 0: log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.1)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
