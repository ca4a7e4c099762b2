# 001: NaN loss from a corrupt sample on rank 1; elastic restart resumes from ckpt and hits it again.
import os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.distributed.elastic.multiprocessing.errors import record

CKPT = os.environ["CKPT_DIR"]

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("logging")
    restart = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", 0))
    m = lib.model()
    opt = torch.optim.SGD(m.parameters(), lr=0.05)
    start = 0
    path = os.path.join(CKPT, "last.pt")
    if os.path.exists(path):
        sd = torch.load(path)
        m.load_state_dict(sd["model"]); opt.load_state_dict(sd["opt"]); start = sd["step"]
        log.info(f"resumed from {path} at step {start} (restart {restart})")
    else:
        log.info("starting from scratch")
    for step in range(start + 1, 21):
        x, y = lib.batch(step, rank)
        if rank == 1 and step == 7:
            x[5, 3] = float("inf")  # corrupt sample 7*16+5 in shard 1
        out = m(x)
        loss = torch.nn.functional.mse_loss(out, y)
        opt.zero_grad(); loss.backward()
        lib.allreduce_grads(m)
        g = loss.detach().clone(); torch.distributed.all_reduce(g); g /= world
        log.info(f"step {step} local_loss {loss.item():.4f} global_loss {g.item():.4f}")
        if not torch.isfinite(g):
            raise FloatingPointError(f"non-finite global loss {g.item()} at step {step}")
        opt.step()
        if step % 5 == 0:
            if rank == 0:
                torch.save({"model": m.state_dict(), "opt": opt.state_dict(), "step": step}, path)
                log.info(f"saved checkpoint step {step} to {path}")
            torch.distributed.barrier()
        time.sleep(0.2)
    log.info("training done")

if __name__ == "__main__":
    main()
