import os, time
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "py")
T.init_pg()
model, opt = T.build(rank)
log.info("group rank %s, world %d", os.environ.get("GROUP_RANK"), world)
for step in range(1, 31):
    x, y = T.batch(rank, step)
    loss = T.train_step(model, opt, x, y)
    if step % 10 == 0:
        log.info("step %d loss %.4f", step, loss)
    time.sleep(0.05)
T.dist.destroy_process_group()
