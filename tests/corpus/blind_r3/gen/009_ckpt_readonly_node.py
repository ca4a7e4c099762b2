# ZeRO-1-style job, 2 nodes x 2 ranks: every rank writes its own optimizer
# shard into its node-local checkpoint dir CKPT_ROOT/node<N>/ckpt. Saves are
# serialized in rank order (save, then barrier) to spare the storage. On node 1
# the checkpoint dir is a read-only mount (the .sh bind-mounts it ro), so the
# first rank of node 1 to save -- global rank 2 -- fails with EROFS; rank 3 and
# node 0 ranks then lose their peer at the barrier.
import os, time, socket, logging, datetime, torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

node = int(os.environ["GROUP_RANK"])
logging.basicConfig(level=logging.INFO,
    format=f"[%(asctime)s] [node{node}:{os.environ['LOCAL_RANK']}] %(levelname)s %(message)s", datefmt="%Y-%m-%d %H:%M:%S")
log = logging.getLogger(__name__)

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    ckdir = os.path.join(os.environ["CKPT_ROOT"], f"node{node}", "ckpt")
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 31):
        x = torch.randn(16, 64, generator=g); y = torch.randint(0, 10, (16,), generator=g)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0: log.info("global_step=%d loss=%.4f", step, loss.item())
        time.sleep(0.15)
        if step % 15 == 0:
            log.info("checkpoint step %d: writing optimizer shard %d/%d to %s", step, rank, world, ckdir)
            for r in range(world):
                if r == rank:
                    shard = {k: v for i, (k, v) in enumerate(opt.state_dict()["state"].items()) if i % world == rank}
                    torch.save({"step": step, "shard": shard}, os.path.join(ckdir, f"optim_rank{rank:02d}.pt"))
                    log.info("shard %d written", rank)
                dist.barrier()
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
