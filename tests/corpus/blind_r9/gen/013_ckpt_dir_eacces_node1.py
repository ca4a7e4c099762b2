# sharded checkpointing: every node's local rank 0 writes that node's optimizer shard into the shared run directory
import os, sys, time, datetime, socket, logging
import torch, torch.distributed as dist
logging.basicConfig(level=logging.INFO, format="%(asctime)s.%(msecs)03d %(levelname)s %(message)s", datefmt="%Y-%m-%d %H:%M:%S")
log = logging.getLogger()
OUT = os.environ["RUN_DIR"]
def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank, lrank, node = dist.get_rank(), int(os.environ["LOCAL_RANK"]), int(os.environ["GROUP_RANK"])
    log.info("rank %d (node %d, local %d, uid %d) up", rank, node, lrank, os.getuid())
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 64)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(1, 121):
        x = torch.randn(32, 64)
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            log.info("rank %d step %d loss %.4f", rank, step, loss.item())
        if step % 40 == 0:
            d = os.path.join(OUT, "checkpoints", f"step{step:06d}")
            if lrank == 0:
                os.makedirs(d, exist_ok=True)
                torch.save({"opt_shard": opt.state_dict(), "node": node}, os.path.join(d, f"optim_node{node}.pt"))
                log.info("rank %d wrote optimizer shard for node %d", rank, node)
            dist.barrier()
            if rank == 0:
                log.info("checkpoint step %d complete", step)
        time.sleep(0.03)
    dist.destroy_process_group()
if __name__ == "__main__":
    main()
