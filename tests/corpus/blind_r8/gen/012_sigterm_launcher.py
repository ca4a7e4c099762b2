# 4 ranks under one torchrun; ~20 s in, the torchrun launcher itself gets SIGTERM (what a
# spot-reclaim / node-drain agent does). torchrun forwards SIGTERM to the workers; each worker
# has a SIGTERM handler that logs and tries a quick emergency checkpoint, then exits.
import datetime, logging, os, signal, sys, time
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"])
logging.basicConfig(level=logging.INFO, format=f"[%(asctime)s][rank {rank}][%(levelname)s] %(message)s",
                    datefmt="%Y-%m-%d %H:%M:%S")
log = logging.getLogger(__name__)
STOP = {"sig": None}

def on_term(sig, frame):
    STOP["sig"] = sig
    log.warning("received signal %s, will stop after the current step", signal.Signals(sig).name)

def main():
    signal.signal(signal.SIGTERM, on_term)
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 64)))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(1, 100000):
        x = torch.randn(32, 64)
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 25 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        if STOP["sig"] is not None:
            log.warning("stopping at step %d: saving emergency checkpoint", step)
            if rank == 0:
                torch.save(model.module.state_dict(), "emergency.pt")
                log.warning("emergency checkpoint written: emergency.pt")
            sys.exit(143)
        time.sleep(0.05)

if __name__ == "__main__":
    main()
