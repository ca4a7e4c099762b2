import logging, os, sys, threading, time
import torch
import torch.distributed as dist
import trainlib as T

rank, world, local = T.env_rank()
log = logging.getLogger("ckpt-train")
h = logging.StreamHandler(sys.stdout)
h.setFormatter(logging.Formatter(f"[%(asctime)s.%(msecs)03d][%(levelname).1s][{rank}/{world}] %(message)s", "%H:%M:%S"))
log.addHandler(h); log.setLevel(logging.INFO)
T.init_pg()
model, opt = T.build(rank)
CKPT = os.environ["CKPT_DIR"]


class AsyncShardWriter:
    def __init__(self):
        self.thread = None
        self.step = None

    def wait(self):
        if self.thread is not None:
            t0 = time.time()
            log.info("waiting for async checkpoint write of step %d to finish", self.step)
            self.thread.join()
            log.info("async checkpoint write of step %d finished after %.1fs wait", self.step, time.time() - t0)

    def submit(self, step, state):
        self.wait()
        d = os.path.join(CKPT, f"step_{step:06d}")
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, f"shard-{rank:05d}-of-{world:05d}.pt")

        def run():
            t0 = time.time()
            torch.save(state, path)
            log.info("wrote %s in %.2fs", path, time.time() - t0)

        self.step = step
        self.thread = threading.Thread(target=run, name=f"ckpt-writer-{step}", daemon=True)
        self.thread.start()
        log.info("checkpoint step %d: shard write started in background", step)


writer = AsyncShardWriter()
for step in range(1, 61):
    x, y = T.batch(rank, step)
    loss = T.train_step(model, opt, x, y)
    if step % 5 == 0:
        log.info("step %d loss %.4f", step, loss)
    if step % 15 == 0:
        sd = {k: v.clone() for k, v in model.module.state_dict().items()}
        writer.submit(step, {"model": sd, "step": step})
    time.sleep(0.1)
writer.wait()
dist.destroy_process_group()
