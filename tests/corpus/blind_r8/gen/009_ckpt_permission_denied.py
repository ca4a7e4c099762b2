# 3 ranks, torchrun (plain console, rank-prefixed logging). Sharded checkpoints: each rank
# writes ckpt/rank_XX/step_N.pt. ckpt/rank_01 was left behind by another user's job
# (uid 1001, mode 755) and the job runs without CAP_DAC_OVERRIDE -> rank 1 gets EACCES at the
# first save (step 25). (torch.save raises RuntimeError from inline_container, not OSError,
# so the CheckpointSaveError wrapper never fires: the log shows the raw torch error.)
import datetime, logging, os, sys, time
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                    format=f"%(asctime)s [rank{rank}] %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("trainer.ckpt")
CK = os.environ["CKPT_ROOT"]

class CheckpointSaveError(RuntimeError):
    pass

def save_shard(model, opt, step):
    d = os.path.join(CK, f"rank_{rank:02d}"); os.makedirs(d, exist_ok=True)
    p = os.path.join(d, f"step_{step}.pt")
    try:
        torch.save({"model": model.state_dict(), "optim": opt.state_dict()}, p)
    except OSError as e:
        log.error("failed to write shard %s: %s", p, e)
        raise CheckpointSaveError(f"shard save failed for step {step}") from e
    log.info("wrote shard %s (%.1f KiB)", p, os.path.getsize(p) / 1024)

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
    torch.manual_seed(rank)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 32)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    logging.getLogger("trainer").info("checkpoint root %s, interval 25 steps", CK)
    for step in range(1, 76):
        x = torch.randn(16, 32)
        loss = (model(x) - x).abs().mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            logging.getLogger("trainer").info("step %d loss %.4f", step, loss.item())
        if step % 25 == 0:
            save_shard(model.module, opt, step)
            dist.barrier()
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
