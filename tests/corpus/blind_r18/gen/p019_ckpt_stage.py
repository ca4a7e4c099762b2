import os, time
import torch
import torch.distributed as dist
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "py")
T.init_pg()
model, opt = T.build(rank)
STAGE = os.environ.get("CKPT_STAGING", "/dev/shm/ckpt-staging")
FINAL = os.environ["CKPT_DIR"]


def save_checkpoint(step):
    if rank == 0:
        os.makedirs(STAGE, exist_ok=True)
        os.makedirs(FINAL, exist_ok=True)
        tmp = os.path.join(STAGE, f"step_{step:06d}.pt.tmp")
        torch.save({"model": model.module.state_dict(), "optim": opt.state_dict(), "step": step}, tmp)
        log.info("staged checkpoint %s (%.1f KiB)", tmp, os.path.getsize(tmp) / 1024)
        os.rename(tmp, os.path.join(FINAL, f"step_{step:06d}.pt"))  # atomic publish
        log.info("published checkpoint step %d", step)
    dist.barrier()


for step in range(1, 41):
    x, y = T.batch(rank, step)
    loss = T.train_step(model, opt, x, y)
    if step % 5 == 0:
        log.info("step %d loss %.4f", step, loss)
    if step % 15 == 0:
        save_checkpoint(step)
    time.sleep(0.1)
log.info("done")
dist.destroy_process_group()
