# sbatch + plain srun (no --label), 3 tasks; each task also writes its own log file
# logs/rank{N}.log. Loss is a hand-written NLL: -log(p[target]). Rank 1's shard contains a
# sample whose logits saturate so p[target] underflows to 0 -> loss=inf on rank 1 at that step;
# after the gradient all_reduce every rank holds inf/nan grads and clip_grad_norm_
# (error_if_nonfinite=True) raises on all three ranks at once.
import os, sys, time, datetime, logging
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
os.makedirs(os.environ["LOG_DIR"], exist_ok=True)
fmt = logging.Formatter("%(asctime)s %(levelname)s %(message)s")
root = logging.getLogger(); root.setLevel(logging.INFO)
fh = logging.FileHandler(os.path.join(os.environ["LOG_DIR"], f"rank{rank}.log")); fh.setFormatter(fmt); root.addHandler(fh)
sh = logging.StreamHandler(sys.stdout); sh.setFormatter(fmt); root.addHandler(sh)
log = logging.getLogger("train")

def main():
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29711")
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(1234)
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(100 + rank)
    try:
        for step in range(1, 80):
            x = torch.randn(16, 20, generator=g); y = torch.randint(0, 5, (16,), generator=g)
            if rank == 1 and step == 41:
                x[3] = 1e4                       # corrupted feature row (unnormalised sensor value)
            p = torch.softmax(model(x), dim=-1)
            loss = -torch.log(p[torch.arange(16), y]).mean()
            opt.zero_grad(); loss.backward()
            for q in model.parameters(): dist.all_reduce(q.grad, op=dist.ReduceOp.AVG)
            log.info("step=%d loss=%.4f", step, loss.item())
            gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
            opt.step()
            if step % 10 == 0:
                log.info("step=%d grad_norm=%.3f lr=%.3g", step, gn.item(), 0.05)
            time.sleep(0.1)
    except Exception:
        log.exception("training step failed")
        raise
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
