# Sharded checkpoint: the local-rank-0 process of every node writes its node's optimizer shard to
# node-local scratch. On node B the scratch volume was mounted read-only.
import logging, os, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, local_rank = dist.get_rank(), int(os.environ["LOCAL_RANK"])
    node = os.environ["SIM_NODE"]
    logging.basicConfig(level=logging.INFO,
        format=f"[%(asctime)s] [{node}] [RANK {rank}/LOCAL {local_rank}] %(levelname)s %(message)s",
        datefmt="%Y-%m-%d %H:%M:%S")
    log = logging.getLogger("trainer")
    scratch = os.environ["SCRATCH"]
    log.info("scratch dir %s", scratch)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 8)))
    opt = torch.optim.Adam(model.parameters(), lr=3e-4)
    for step in range(1, 61):
        x = torch.randn(16, 64); y = torch.randint(0, 8, (16,))
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            log.info("step=%d loss=%.4f lr=%.2e", step, loss.item(), 3e-4)
        if step % 30 == 0:
            if local_rank == 0:
                d = os.path.join(scratch, "ckpt", f"global_step{step}")
                log.info("writing optimizer shard to %s", d)
                os.makedirs(d, exist_ok=True)
                torch.save(opt.state_dict(), os.path.join(d, f"optim_shard_node{node}.pt"))
                log.info("shard written")
            dist.barrier()
        time.sleep(0.05)
    log.info("done")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
