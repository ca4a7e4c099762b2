# srun --label, 3 tasks, env:// rendezvous on MASTER_PORT=29714. A store server left behind by an
# earlier job on the same node (stale process) still listens on 29714. Rank 0 cannot bind the
# port (EADDRINUSE); ranks 1-2 connect to the stale server and wait there until they time out.
import os, sys, time, datetime, logging
import torch, torch.distributed as dist

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.DEBUG if rank == 0 else logging.INFO,
                    format=f"%(asctime)s rank{rank} %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("launch")

def main():
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29714", RANK=str(rank), WORLD_SIZE=str(world))
    log.info("init_process_group(backend=gloo, init_method=env://) MASTER_ADDR=%s MASTER_PORT=%s", os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"])
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=25))
    log.info("process group ready")
    t = torch.ones(4) * rank
    dist.all_reduce(t)
    log.info("sanity all_reduce: %s", t.tolist())
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
