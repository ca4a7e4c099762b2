import math, os, time
import torch
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "bare")
T.init_pg(rank, world)
model, opt = T.build(rank)
BASE_LR, WARMUP, BS, EPOCHS = 0.05, 40, 16, 1
n_local = int(open(os.path.join(os.environ["SHARD_DIR"], f"part-{rank}.count")).read())
total_steps = EPOCHS * (n_local // BS)


def lr_at(step):
    if step < WARMUP:
        return BASE_LR * (step + 1) / WARMUP
    progress = (step - WARMUP) / (total_steps - WARMUP)
    return BASE_LR * 0.5 * (1.0 + math.cos(math.pi * progress))


log.info("local samples=%d total_steps=%d warmup=%d", n_local, total_steps, WARMUP)
for step in range(0, 60):
    for g in opt.param_groups:
        g["lr"] = lr_at(step)
    x, y = T.batch(rank, step)
    loss = T.train_step(model, opt, x, y)
    if step % 10 == 0:
        log.info("step %d lr %.5f loss %.4f", step, opt.param_groups[0]["lr"], loss)
    time.sleep(0.08)
log.info("finished")
T.dist.destroy_process_group()
