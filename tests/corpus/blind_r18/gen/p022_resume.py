import os, time
import torch
import torch.distributed as dist
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "py")
T.init_pg()
model, opt = T.build(rank)
ck = os.environ["RESUME_DIR"]
log.info("resuming from %s", ck)
state = torch.load(os.path.join(ck, "model.pt"), map_location="cpu")
model.module.load_state_dict(state["model"])
start = state["step"]
opt_path = os.path.join(ck, f"optim_shard_{rank:03d}.pt")
log.info("loading optimizer shard %s", os.path.basename(opt_path))
opt.load_state_dict(torch.load(opt_path, map_location="cpu"))
dist.barrier()
log.info("resumed at step %d", start)
for step in range(start + 1, start + 31):
    x, y = T.batch(rank, step)
    loss = T.train_step(model, opt, x, y)
    if step % 10 == 0:
        log.info("step %d loss %.4f", step, loss)
    time.sleep(0.1)
dist.destroy_process_group()
