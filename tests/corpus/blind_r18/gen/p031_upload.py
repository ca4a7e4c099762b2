import io, os, time, urllib.request
import torch
import torch.distributed as dist
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "py")
T.init_pg()
model, opt = T.build(rank)
STORE = os.environ["STORE_URL"]


def upload(name, payload, retries=5):
    for attempt in range(1, retries + 1):
        try:
            req = urllib.request.Request(f"{STORE}/{name}", data=payload, method="PUT")
            with urllib.request.urlopen(req, timeout=10) as r:
                log.info("uploaded %s (%d bytes, etag %s) on attempt %d", name, len(payload), r.headers["ETag"], attempt)
                return
        except (ConnectionError, OSError) as e:
            delay = 0.5 * 2 ** (attempt - 1)
            log.warning("upload of %s failed (attempt %d/%d): %r; retrying in %.1fs", name, attempt, retries, e, delay)
            time.sleep(delay)
    raise RuntimeError(f"upload of {name} failed after {retries} attempts")


for step in range(1, 41):
    x, y = T.batch(rank, step)
    loss = T.train_step(model, opt, x, y)
    if step % 5 == 0:
        log.info("step %d loss %.4f", step, loss)
    if step == 20:
        if rank == 0:
            buf = io.BytesIO(); torch.save(model.module.state_dict(), buf)
            upload(f"runs/ft-0412/step_{step:06d}.pt", buf.getvalue())
        dist.barrier()
    time.sleep(0.05)
log.info("finished 40 steps")
dist.destroy_process_group()
