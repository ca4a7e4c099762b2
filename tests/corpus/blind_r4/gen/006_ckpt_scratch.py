# every worker writes its own optimizer shard under $CKPT_ROOT/worker<k>/step_<n>
import logging, os, time
from datetime import timedelta
import torch, torch.distributed as dist, torch.nn as nn

logging.basicConfig(level=logging.INFO, format="[%(process)d] %(levelname)s %(funcName)s: %(message)s")
log = logging.getLogger()
ROOT = os.environ["CKPT_ROOT"]

def save_shard(rank, step, model, opt):
    d = os.path.join(ROOT, f"worker{rank}", f"step_{step:06d}")
    os.makedirs(d, exist_ok=True)
    torch.save({"model": model.state_dict(), "optim": opt.state_dict(), "step": step}, os.path.join(d, "shard.pt"))
    return d

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    rank = dist.get_rank()
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 8)))
    opt = torch.optim.Adam(model.parameters())
    for step in range(1, 31):
        loss = model(torch.randn(32, 64)).logsumexp(-1).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0 and rank == 0:
            log.info("step=%d loss=%.4f", step, loss.item())
        if step % 10 == 0:
            d = save_shard(rank, step, model.module, opt)
            log.info("shard written to %s", d)
            dist.barrier()
        time.sleep(0.1)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
