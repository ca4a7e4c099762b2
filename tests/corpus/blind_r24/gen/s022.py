# 022: healthy but slow training (2 tasks under srun) that cannot finish inside --time=1.
import os, sys, time, torch
os.environ.setdefault("RANK", os.environ.get("SLURM_PROCID", "0"))
os.environ.setdefault("WORLD_SIZE", os.environ.get("SLURM_NTASKS", "1"))
sys.path.insert(0, os.path.dirname(__file__))
import lib

def main():
    rank, world = lib.init(timeout=60)
    log = lib.Log("json")
    total = 3000
    log.info("start", total_steps=total, est_step_time=0.1)
    m = lib.model(); opt = torch.optim.SGD(m.parameters(), lr=0.01)
    t0 = time.time()
    for step in range(1, total + 1):
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        if step % 25 == 0:
            el = time.time() - t0
            log.info("progress", step=step, loss=round(loss.item(), 4), elapsed_s=round(el, 1),
                     eta_s=round(el / step * (total - step)))
        time.sleep(0.08)
    log.info("done")

if __name__ == "__main__":
    main()
