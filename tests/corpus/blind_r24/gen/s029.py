# 029 (healthy): srun-launched run with a dynamic loss scaler (a few overflows at warm-up) and
# one noisy batch that spikes the loss briefly; completes.
import os, sys, time, torch
os.environ.setdefault("RANK", os.environ.get("SLURM_PROCID", "0"))
os.environ.setdefault("WORLD_SIZE", os.environ.get("SLURM_NTASKS", "1"))
sys.path.insert(0, os.path.dirname(__file__))
import lib

def main():
    rank, world = lib.init(timeout=60)
    log = lib.Log("logging_norank", name="sft")
    m = lib.model(); opt = torch.optim.SGD(m.parameters(), lr=0.02)
    scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 127, growth_interval=1000)
    for step in range(1, 81):
        x, y = lib.batch(step, rank)
        if step == 40:
            x = x * 6   # a batch of badly normalised samples
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); scaler.scale(loss).backward(); lib.allreduce_grads(m)
        before = scaler.get_scale()
        scaler.step(opt); scaler.update()
        if scaler.get_scale() < before:
            log.warning(f"step {step}: gradient overflow, skipping update; loss scale {before:.3g} -> {scaler.get_scale():.3g}")
        if step % 5 == 0 or step in (40, 41, 42):
            log.info(f"step {step}/80 loss {loss.item():.4f} scale {scaler.get_scale():.3g}")
        time.sleep(0.1)
    log.info("training complete")

if __name__ == "__main__":
    main()
