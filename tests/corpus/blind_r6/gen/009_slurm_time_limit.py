# sbatch --time=1 with srun --label, 2 tasks: training is healthy but needs ~5 min; the
# scheduler cancels the job at its 1 minute time limit.
import os, time, datetime, logging, warnings
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s - %(name)s - %(levelname)s - %(message)s")
log = logging.getLogger("pretrain")

def main():
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29709")
    warnings.filterwarnings("default")
    dist.init_process_group("gloo", rank=rank, world_size=world)
    log.info("world_size=%d rank=%d local_rank=%s, GLOO_SOCKET_IFNAME=%s", world, rank, os.environ.get("SLURM_LOCALID"), os.environ.get("GLOO_SOCKET_IFNAME", "<unset>"))
    model = nn.Sequential(*[nn.Sequential(nn.Linear(256, 256), nn.GELU()) for _ in range(4)])
    for p in model.parameters(): dist.broadcast(p.data, 0)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    total = 3000
    t0 = time.time()
    for step in range(1, total + 1):
        x = torch.randn(64, 256)
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad(); loss.backward()
        for p in model.parameters(): dist.all_reduce(p.grad, op=dist.ReduceOp.AVG)
        opt.step()
        time.sleep(0.08)
        if step % 25 == 0 and rank == 0:
            el = time.time() - t0
            log.info("step %d/%d loss=%.4f lr=%.2e elapsed=%.0fs eta=%.0fs", step, total, loss.item(), 3e-4, el, el / step * (total - step))
        if step % 200 == 0 and rank == 0:
            torch.save(model.state_dict(), os.path.join(os.environ["CKPT_DIR"], f"model_{step}.pt"))
            log.info("saved checkpoint model_%d.pt", step)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
