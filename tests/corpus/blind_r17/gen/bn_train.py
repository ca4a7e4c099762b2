"""Trainer with batch-standardised logits and anomaly detection enabled (debug run)."""
import os, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.distributed.elastic.multiprocessing.errors import record
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

@record
def main():
    rank, world, log = init()
    torch.autograd.set_detect_anomaly(True)
    model = DDP(Net())
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    n_samples = 16 * 8 + (1 if rank == int(os.environ.get("REMAINDER_RANK", "-1")) else 0)
    steps = (n_samples + 15) // 16
    for step in range(steps):
        bs = min(16, n_samples - 16 * step)
        x, y = make_batch(rank, step, bs=bs)
        out = model(x)
        z = (out - out.mean(0)) / out.std(0)
        loss = F.cross_entropy(z, y)
        opt.zero_grad(); loss.backward(); opt.step()
        log(f"step {step} bs={bs} loss={loss.item():.4f}")
        time.sleep(0.2)
    dist.barrier()
    log("epoch complete")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
