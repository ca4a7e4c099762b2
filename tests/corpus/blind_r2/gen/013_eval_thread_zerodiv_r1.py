# Each rank evaluates asynchronously in a background thread and hands the metrics to the main
# thread through a queue. On rank 1 the model predicts no positives on its eval slice, so
# precision = tp / (tp + fp) raises ZeroDivisionError inside the thread. The thread dies, the
# main thread blocks forever on queue.get(), and ranks 0 and 2 time out in the metrics all_reduce.
import logging, queue, threading, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def evaluate(model, rank, out_q, log):
    x = torch.randn(128, 16)
    with torch.no_grad():
        logits = model.module(x).squeeze(-1)
    if rank == 1:
        logits = logits.clamp(max=-0.1)       # this replica's eval slice: every score below threshold
    pred = logits > 0
    gold = x[:, 0] > 0
    tp = (pred & gold).sum().item(); fp = (pred & ~gold).sum().item()
    log.info("eval: tp=%d fp=%d n=%d", tp, fp, len(x))
    precision = tp / (tp + fp)
    out_q.put(torch.tensor([precision, 1.0]))

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s %(levelname)s rank{rank} %(threadName)s: %(message)s")
    log = logging.getLogger("run")
    model = DDP(torch.nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    q = queue.Queue()
    for epoch in range(3):
        for step in range(30):
            x = torch.randn(32, 16)
            loss = torch.nn.functional.binary_cross_entropy_with_logits(model(x).squeeze(-1), (x[:, 0] > 0).float())
            opt.zero_grad(); loss.backward(); opt.step()
            time.sleep(0.02)
        log.info("epoch %d train loss %.4f, launching async eval", epoch, loss.item())
        threading.Thread(target=evaluate, args=(model, rank, q, log), name=f"async-eval-{epoch}", daemon=True).start()
        m = q.get()                      # wait for this rank's metrics
        dist.all_reduce(m)
        if rank == 0:
            log.info("epoch %d mean precision %.3f", epoch, (m[0] / m[1]).item())
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
