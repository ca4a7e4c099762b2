import os, time
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, TensorDataset
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "py")
T.init_pg()
model, opt = T.build(rank)
shard = torch.load(os.path.join(os.environ["SHARD_DIR"], f"shard-{rank:05d}-of-{world:05d}.pt"))
loader = DataLoader(TensorDataset(shard["x"], shard["y"]), batch_size=16, shuffle=False)
steps_per_epoch = int(os.environ.get("STEPS_PER_EPOCH", "20"))
log.info("shard has %d samples, running %d steps/epoch", len(shard["x"]), steps_per_epoch)
it = iter(loader)
step = 0
for step in range(1, steps_per_epoch + 1):
    try:
        x, y = next(it)
    except StopIteration:
        log.info("data iterator exhausted at step %d, ending epoch", step)
        break
    loss = T.train_step(model, opt, x, y)
    if step % 4 == 0:
        log.info("step %d loss %.4f", step, loss)
    time.sleep(0.15)
log.info("epoch complete after %d steps; shutting down", step)
dist.destroy_process_group()
