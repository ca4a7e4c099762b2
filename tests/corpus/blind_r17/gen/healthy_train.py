"""Healthy trainer with noisy-but-recovered events (selected by env)."""
import logging, math, os, socket, time, warnings
import torch, torch.distributed as dist, torch.multiprocessing as mp, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

EVENT = os.environ.get("EVENT", "")
EV_RANK = int(os.environ.get("EVENT_RANK", "-1"))

def push_metrics(step, loss, attempt):
    # metrics tracker on localhost:22299 is restarted at the beginning of the run; first attempt fails
    with socket.create_connection(("127.0.0.1", 22299), timeout=2) as s:
        s.sendall(f"loss {step} {loss}\n".encode())

def worker(local_rank=None, world=None):
    rank, world, log = init(local_rank, world)
    lg = logging.getLogger("trainer")
    model = DDP(Net())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    if rank == EV_RANK and EVENT == "warn":
        warnings.warn("torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly", UserWarning)
    for step in range(10):
        x, y = make_batch(rank, step)
        if EVENT == "nan" and rank == EV_RANK and step == 4:
            x[3, 5] = float("nan")
        bad = ~torch.isfinite(x).all(dim=1)
        if bad.any():
            log(f"WARNING: {int(bad.sum())} sample(s) with NaN/Inf features at step {step}, dropping them from the batch")
            x, y = x[~bad], y[~bad]
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        l = reduce_loss(loss, world)
        log(f"step {step} loss={l:.4f}")
        if EVENT == "metrics" and rank == EV_RANK and step in (2, 6):
            for attempt in range(3):
                try:
                    push_metrics(step, l, attempt)
                    break
                except OSError:
                    lg.exception(f"metrics push failed (attempt {attempt + 1}/3), retrying in 1s")
                    time.sleep(1)
        if EVENT == "enospc" and rank == EV_RANK and step == 5:
            sd = {"model": model.module.state_dict(), "opt": opt.state_dict(), "pad": torch.zeros(400_000)}
            for d in (os.environ["FAST_CKPT"], os.environ["SLOW_CKPT"]):
                try:
                    torch.save(sd, os.path.join(d, "step5.pt"))
                    log(f"checkpoint saved to {d}/step5.pt")
                    break
                except Exception:
                    lg.exception(f"checkpoint save to {d} failed, falling back")
        time.sleep(0.2)
    dist.barrier()
    log("training complete, all ranks finished")
    dist.destroy_process_group()

if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    if os.environ.get("USE_SPAWN"):
        n = int(os.environ["NPROCS"])
        mp.spawn(worker, args=(n,), nprocs=n, join=True)
    else:
        worker()
