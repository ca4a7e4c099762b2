import os, sys, time
import torch
import trainlib as T

rank, world, local = T.env_rank()
logpath = os.path.join(os.environ["LOG_DIR"], f"{T.HOST}.{os.getpid()}.jsonl")
stream = open(logpath, "a", buffering=1)
sys.stderr = stream  # tracebacks land in the same per-process log
log = T.make_logger(rank, "json", stream=stream)
T.init_pg()
model, opt = T.build(rank)
data = torch.load(os.path.join(os.environ["DATA_DIR"], f"train-{rank:02d}.pt"))
log.info("loaded %d samples, x dtype %s", data["x"].shape[0], str(data["x"].dtype).replace("torch.", ""))
for step in range(1, 31):
    i = (step - 1) * 16 % data["x"].shape[0]
    x, y = data["x"][i:i + 16], data["y"][i:i + 16]
    if step == 1 and rank == 0:
        log.info("first batch ok: %s", tuple(x.shape))
    loss = T.train_step(model, opt, x, y)
    if step % 10 == 0:
        log.info("step %d loss %.4f", step, loss)
    time.sleep(0.1)
log.info("done")
T.dist.destroy_process_group()
