# training script using a site-built fused-optimizer extension ("fastops") from the node's software stack
import os, sys, time, datetime
import torch, torch.distributed as dist
rank = int(os.environ["SLURM_PROCID"]); ws = int(os.environ["SLURM_NTASKS"])
def main():
    print(f"[{datetime.datetime.now():%H:%M:%S}] rank {rank} on {os.environ.get('FAKE_NODE')}: torch {torch.__version__}, python {sys.version.split()[0]}", flush=True)
    dist.init_process_group("gloo", rank=rank, world_size=ws, timeout=datetime.timedelta(seconds=30))
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 32)))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(1, 81):
        x = torch.randn(16, 32)
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad(); loss.backward()
        if step == 20:
            # switch to the fused kernel once warm-up is over
            import fastops
            print(f"rank {rank}: using fastops {getattr(fastops, '__version__', '?')} fused AdamW", flush=True)
            fused = True
        opt.step()
        if step % 10 == 0:
            print(f"[{datetime.datetime.now():%H:%M:%S}] rank {rank} step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.04)
    dist.destroy_process_group()
if __name__ == "__main__":
    main()
