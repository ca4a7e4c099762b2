import os, time
import torch
import torch.distributed as dist
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "py")
T.init_pg()
model, opt = T.build(rank)

if rank == 0:
    path = os.environ["INIT_FROM"]
    log.info("loading pretrained weights from %s", path)
    ckpt = torch.load(path, map_location="cpu")
    model.module.load_state_dict(ckpt["model"])
    log.info("loaded pretrained weights (config %s)", ckpt["config"])
for p in model.module.parameters():
    dist.broadcast(p.data, src=0)
log.info("parameters synchronised from rank 0")
for step in range(1, 31):
    x, y = T.batch(rank, step)
    loss = T.train_step(model, opt, x, y)
    if step % 10 == 0:
        log.info("step %d loss %.4f", step, loss)
    time.sleep(0.1)
dist.destroy_process_group()
