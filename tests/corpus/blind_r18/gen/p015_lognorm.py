import os, time
import torch
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "hostpid")
T.init_pg()
model, opt = T.build(rank, lr=0.02)
torch.autograd.set_detect_anomaly(True)
log.info("anomaly detection enabled (debug run)")


def features(step):
    g = torch.Generator().manual_seed(31 * rank + step)
    counts = torch.randint(1, 500, (16, 32), generator=g).float()
    if rank == 3 and step == 17:
        counts[9, 4:] = 0.0  # a record whose count columns were never filled in
    return torch.log(counts) - 3.0  # log-count features


for step in range(1, 41):
    x = features(step)
    y = torch.randint(0, 4, (16,), generator=torch.Generator().manual_seed(step))
    opt.zero_grad()
    out = model(x)
    loss = torch.nn.functional.cross_entropy(out, y)
    loss.backward()
    opt.step()
    if step % 4 == 0:
        log.info("step %d loss %.4f", step, loss.item())
    time.sleep(0.1)
log.info("done")
T.dist.destroy_process_group()
