# HEALTHY. torchrun --log-dir --tee 3, 3 ranks. Alarming but handled: rank 1's remote reads
# fail twice (connection reset) then succeed; rank 2 logs a decode failure with full traceback
# and skips the sample; rank 0's first checkpoint save races the directory creation, fails with a
# traceback and succeeds on retry; torch UserWarning about non-writable numpy arrays. Exit 0.
import os, sys, time, datetime, logging, socket
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s [%(name)s] %(message)s")
log = logging.getLogger("train")

class FlakyRemote:
    """reads through a connection that resets the first two times (proxy warming up)"""
    def __init__(self): self.calls = 0
    def read(self):
        self.calls += 1
        if self.calls <= 2:
            a, b = socket.socketpair(); a.close()
            b.send(b"x")    # peer gone -> real error
            b.recv(1)
        return np.frombuffer(np.random.randn(32 * 24).astype(np.float32).tobytes(), dtype=np.float32)

def with_retry(fn, what, tries=5):
    for i in range(1, tries + 1):
        try:
            out = fn()
            if i > 1: log.info("%s succeeded on attempt %d", what, i)
            return out
        except OSError as e:
            log.warning("%s failed: %r (attempt %d/%d), retrying in %.1fs", what, e, i, tries, 0.5 * i)
            time.sleep(0.5 * i)
    raise RuntimeError(what)

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
    rank, world = dist.get_rank(), dist.get_world_size()
    remote = FlakyRemote() if rank == 1 else None
    model = nn.Linear(24, 4)
    for p in model.parameters(): dist.broadcast(p.data, 0)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    ckdir = os.path.join(os.environ["CKPT_ROOT"], "run-17")
    for step in range(60):
        if remote is not None and step == 3:
            raw = with_retry(remote.read, "read s3://bucket/feat/part-0001")
        else:
            raw = np.random.randn(32 * 24).astype(np.float32).tobytes()
        x = torch.from_numpy(np.frombuffer(raw, dtype=np.float32).reshape(32, 24))  # non-writable -> UserWarning
        if rank == 2 and step == 17:
            try:
                b"caption:\xff\xfe broken".decode("utf-8")
            except UnicodeDecodeError:
                log.exception("failed to decode caption of sample 8812, skipping it")
        loss = model(x).pow(2).mean()
        opt.zero_grad(); loss.backward()
        for p in model.parameters(): dist.all_reduce(p.grad, op=dist.ReduceOp.AVG)
        opt.step()
        if step % 10 == 0: log.info("step %d loss %.4f", step, loss.item())
        if rank == 0 and step == 30:
            def save():
                torch.save(model.state_dict(), os.path.join(ckdir, "step30.pt"))
            try:
                save()
            except (RuntimeError, OSError):
                log.exception("checkpoint save failed, will retry once the directory exists")
                os.makedirs(ckdir, exist_ok=True)
                save()
                log.info("checkpoint saved to %s/step30.pt", ckdir)
        time.sleep(0.05)
    dist.barrier()
    log.info("training finished: 60 steps, final loss %.4f", loss.item())
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
