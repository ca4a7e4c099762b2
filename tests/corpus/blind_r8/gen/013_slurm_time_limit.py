# sbatch --time=1 -> srun -> torchrun (2 procs). Training wants ~4 minutes; Slurm cancels
# the job at its 1-minute limit (SIGTERM to the step, SIGKILL after KillWait).
import datetime, os, sys, time, warnings
import torch, torch.nn as nn, torch.distributed as dist
rank = int(os.environ["RANK"])
def main():
    dist.init_process_group("gloo")
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Conv1d(8, 16, 3), nn.ReLU(), nn.Flatten(), nn.Linear(16 * 62, 4)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    total = 2400
    for step in range(1, total + 1):
        x = torch.randn(16, 8, 64); y = torch.randint(0, 4, (16,))
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 50 == 0 and rank == 0:
            print(f"{datetime.datetime.now():%Y-%m-%d %H:%M:%S} | epoch 0 | step {step}/{total} | loss {loss.item():.4f} | eta {(total-step)*0.1/60:.1f} min", flush=True)
        if step % 400 == 0 and rank == 0:
            torch.save(model.module.state_dict(), "last.pt"); print(f"checkpoint saved at step {step}", flush=True)
        time.sleep(0.1)
    dist.destroy_process_group()
if __name__ == "__main__":
    main()
