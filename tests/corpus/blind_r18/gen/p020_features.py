import os, time
import numpy as np
import torch
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "bare")
T.init_pg(rank, world)
model, opt = T.build(rank)
feat_files = sorted(os.listdir(os.environ["FEAT_DIR"]))
mine = [f for i, f in enumerate(feat_files) if i % world == rank]
log.info("feature files: %s", mine)
step = 0
for fname in mine:
    arr = np.load(os.path.join(os.environ["FEAT_DIR"], fname))
    X, Y = torch.from_numpy(arr["x"]), torch.from_numpy(arr["y"]).long()
    log.info("%s: %d rows x %d features", fname, X.shape[0], X.shape[1])
    for i in range(0, X.shape[0], 16):
        step += 1
        loss = T.train_step(model, opt, X[i:i + 16], Y[i:i + 16])
        if step % 10 == 0:
            log.info("step %d loss %.4f", step, loss)
        time.sleep(0.05)
log.info("done after %d steps", step)
T.dist.destroy_process_group()
