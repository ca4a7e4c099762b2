# classifier with per-rank eval; eval error report is gathered to rank 0 with all_gather_object
import os, sys, time, datetime, logging
from collections import defaultdict
import torch, torch.distributed as dist, torch.multiprocessing as mp

def setup_logging(rank):
    logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                        format=f"%(asctime)s | %(levelname)-7s | rank{rank} | %(message)s", force=True)
    return logging.getLogger("cls")

def evaluate(model, rank, log):
    g = torch.Generator().manual_seed(1000 + rank)
    x = torch.randn(64, 20, generator=g); y = (x[:, 0] > 0).long()
    if rank == 2:
        y[:5] = 7   # this shard has samples with a label id the head never saw
    pred = model(x).argmax(1)
    report = {"n": len(y), "correct": int((pred == y).sum())}
    bad = (y >= 2).nonzero().flatten().tolist()
    if bad:
        # collect confusions keyed by gold label for the error analysis table
        conf = defaultdict(lambda: defaultdict(int))
        for i in bad:
            conf[int(y[i])][int(pred[i])] += 1
        report["confusions"] = conf
        log.warning("eval: %d samples with out-of-vocabulary labels %s", len(bad), sorted(set(int(y[i]) for i in bad)))
    return report

def worker(rank, ws, port):
    log = setup_logging(rank)
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=ws, timeout=datetime.timedelta(seconds=30))
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(20, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    g = torch.Generator().manual_seed(rank)
    for epoch in range(2):
        for step in range(30):
            x = torch.randn(32, 20, generator=g); y = (x[:, 0] > 0).long()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad(); loss.backward(); opt.step()
            if step % 10 == 0:
                log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
            time.sleep(0.03)
        with torch.no_grad():
            rep = evaluate(model.module, rank, log)
        reports = [None] * ws
        dist.all_gather_object(reports, rep)
        if rank == 0:
            acc = sum(r["correct"] for r in reports) / sum(r["n"] for r in reports)
            log.info("epoch %d eval acc %.4f", epoch, acc)
    dist.destroy_process_group()

if __name__ == "__main__":
    ws = 3
    mp.spawn(worker, args=(ws, 30004), nprocs=ws, join=True)
