import os, time
import numpy as np
import torch
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "py")
T.init_pg()
model, opt = T.build(rank)
root = os.environ["DATA_ROOT"]
files = sorted(f for f in os.listdir(root) if f.endswith(".npy"))
mine = files[rank::world]
log.info("node %s: %d shard files assigned: %s", os.environ.get("GROUP_RANK"), len(mine), ",".join(mine))
step = 0
for epoch in range(2):
    for fname in mine:
        arr = np.load(os.path.join(root, fname))
        log.info("epoch %d: loaded %s (%d rows)", epoch, fname, arr.shape[0])
        data = torch.from_numpy(arr)
        for i in range(0, data.shape[0], 16):
            step += 1
            x = data[i:i + 16, :32]
            y = data[i:i + 16, 32].long() % 4
            loss = T.train_step(model, opt, x, y)
            if step % 10 == 0:
                log.info("step %d loss %.4f", step, loss)
            time.sleep(0.05)
log.info("done")
T.dist.destroy_process_group()
