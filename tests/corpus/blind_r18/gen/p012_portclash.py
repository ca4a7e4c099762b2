import os, time
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "bare")
log.info("connecting to %s:%s (world %d)", os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"], world)
T.init_pg(rank, world)
model, opt = T.build(rank)
log.info("process group ready")
for step in range(1, 31):
    x, y = T.batch(rank, step)
    loss = T.train_step(model, opt, x, y)
    if step % 10 == 0:
        log.info("step %d loss %.4f", step, loss)
    time.sleep(0.05)
T.dist.destroy_process_group()
