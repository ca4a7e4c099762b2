# torchrun --tee 3 --log-dir, 4 ranks. Ranks 0, 1 and 3 print alarming-looking but harmless
# messages (metrics push failure that is retried, numpy overflow warning, missing keys with
# strict=False, lr_scheduler order warning). Rank 2's feature shard was written by an older
# preprocessing version as float64; the first batch drawn from the new part of that shard
# hits the float32 model -> dtype error on rank 2 only.
import os, sys, time, datetime, logging, warnings
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)-7s [%(filename)s:%(lineno)d] %(message)s")
log = logging.getLogger(__name__)

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=40))
    rank, world = dist.get_rank(), dist.get_world_size()
    model = nn.Sequential(nn.Linear(48, 64), nn.SiLU(), nn.Linear(64, 1))
    sd = {k: v for k, v in model.state_dict().items() if k != "2.bias"}
    res = model.load_state_dict(sd, strict=False)
    if rank == 3:
        log.warning("missing keys when loading pretrained weights: %s (strict=False)", res.missing_keys)
    for p in model.parameters(): dist.broadcast(p.data, 0)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.StepLR(opt, 10)
    sched.step()   # called before optimizer.step(): torch warns, harmless
    rng = np.random.default_rng(rank)
    parts = [rng.standard_normal((1000, 48)).astype(np.float32), rng.standard_normal((1000, 48)).astype(np.float32)]
    if rank == 2:
        parts[1] = rng.standard_normal((1000, 48))   # part appended by preprocess v1: float64
    for step in range(60):
        if rank == 1 and step == 5:
            z = np.exp(np.array([800.0]))        # RuntimeWarning: overflow encountered in exp
            log.info("temperature calibration gave %s, clamping", z)
        if rank == 0 and step in (8, 9):
            try:
                raise ConnectionRefusedError(111, "Connection refused")
            except ConnectionRefusedError as e:
                log.error("failed to push metrics to http://metrics.internal:9091: %s (attempt %d/5, retrying)", e, step - 7)
        lo = (step * 32) % 2000
        part = parts[lo // 1000]
        x = torch.from_numpy(part[lo % 1000:lo % 1000 + 32])
        y = x.sum(dim=1, keepdim=True).float() * 0.1
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward()
        for p in model.parameters(): dist.all_reduce(p.grad, op=dist.ReduceOp.AVG)
        opt.step(); sched.step()
        time.sleep(0.1)
        if step % 10 == 0:
            log.info("rank %d step %d loss %.4f", rank, step, loss.item())
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
