# long-running finetune; installs a SIGTERM handler that writes an emergency checkpoint before exiting
import os, sys, time, signal, datetime
import torch, torch.distributed as dist
rank = int(os.environ["SLURM_PROCID"]); ws = int(os.environ["SLURM_NTASKS"])
STOP = False
def on_term(sig, frm):
    global STOP
    print(f"{datetime.datetime.now():%Y-%m-%dT%H:%M:%S} rank {rank}: caught signal {sig} (SIGTERM); will save an emergency checkpoint and exit", flush=True)
    STOP = True
signal.signal(signal.SIGTERM, on_term)
def main():
    dist.init_process_group("gloo", init_method="env://", rank=rank, world_size=ws, timeout=datetime.timedelta(seconds=60))
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Sequential(torch.nn.Linear(128, 128), torch.nn.Tanh(), torch.nn.Linear(128, 128)))
    opt = torch.optim.AdamW(model.parameters(), lr=2e-4)
    total = 3000
    t0 = time.time()
    for step in range(1, total + 1):
        x = torch.randn(32, 128)
        loss = (model(x) - x.flip(1)).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 50 == 0:
            el = time.time() - t0
            eta = el / step * (total - step)
            print(f"{datetime.datetime.now():%Y-%m-%dT%H:%M:%S} rank {rank} | step {step}/{total} | loss {loss.item():.4f} | {step/el:.1f} it/s | eta {eta/60:.1f} min", flush=True)
        if STOP:
            torch.save(model.module.state_dict(), f"/tmp/r9_017_emergency_rank{rank}.pt")
            print(f"rank {rank}: emergency checkpoint written at step {step}", flush=True)
            sys.exit(143)
        time.sleep(0.05)
    dist.destroy_process_group()
if __name__ == "__main__":
    main()
