"""plain torchrun / mp.spawn / srun training loop"""
import os, sys, time, logging, datetime
import torch, torch.distributed as dist
sys.path.insert(0, os.path.dirname(__file__))
from common import *

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("train")


def main(local_rank=None, world=None):
    if local_rank is not None:  # mp.spawn
        os.environ["RANK"] = str(local_rank); os.environ["WORLD_SIZE"] = str(world); os.environ["LOCAL_RANK"] = str(local_rank)
    if "SLURM_PROCID" in os.environ and "RANK" not in os.environ:
        os.environ["RANK"] = os.environ["SLURM_PROCID"]; os.environ["WORLD_SIZE"] = os.environ["SLURM_NTASKS"]
    torch.set_num_threads(1)
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=int(os.environ.get("PG_TIMEOUT", "30"))))
    rank, world = dist.get_rank(), dist.get_world_size()
    log.info("rank %d/%d initialised (gloo) on %s", rank, world, os.uname().nodename)
    torch.manual_seed(0)
    model = tiny_gpt2()
    ddp = torch.nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.AdamW(ddp.parameters(), lr=3e-3)
    ds = SeqDataset()
    sampler = torch.utils.data.distributed.DistributedSampler(ds, shuffle=True)
    dl = torch.utils.data.DataLoader(ds, batch_size=8, sampler=sampler, num_workers=int(os.environ.get("WORKERS", "0")))
    steps = int(os.environ.get("STEPS", "60")); step = 0
    t0 = time.time()
    for epoch in range(100):
        sampler.set_epoch(epoch)
        for batch in dl:
            batch = data_fault(step, rank, batch)
            batch = step_fault(step, rank, batch)
            lr_fault(step, opt)
            out = forward(ddp, batch)
            opt.zero_grad(); out.loss.backward(); opt.step()
            if step % int(os.environ.get("LOG_EVERY", "2")) == 0:
                log.info("rank %d epoch %d step %d loss %.4f lr %.2e step_time %.3fs", rank, epoch, step, out.loss.item(), opt.param_groups[0]["lr"], (time.time() - t0) / (step + 1))
            time.sleep(float(os.environ.get("SLEEP", "0")))
            step += 1
            if step >= steps:
                break
        if step >= steps:
            break
    if rank == 0 and os.environ.get("CKPT"):
        torch.save(model.state_dict(), os.environ["CKPT"]); log.info("saved %s", os.environ["CKPT"])
    dist.barrier()
    log.info("rank %d done, %d steps in %.1fs", rank, step, time.time() - t0)
    dist.destroy_process_group()


if __name__ == "__main__":
    if os.environ.get("SPAWN"):
        import torch.multiprocessing as mp
        n = int(os.environ["SPAWN"])
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        mp.spawn(main, args=(n,), nprocs=n, join=True)
    else:
        main()
