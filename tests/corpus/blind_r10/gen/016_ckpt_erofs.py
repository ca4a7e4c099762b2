# denoising autoencoder; checkpoints every epoch to the project checkpoint volume
import os, sys, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta
from tqdm import tqdm

def main():
    rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:30116", rank=rank, world_size=world,
                            timeout=timedelta(seconds=20))
    ckpt_dir = os.environ["CKPT_DIR"]
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(64, 16), nn.ReLU(), nn.Linear(16, 64)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    data = torch.randn(1600, 64, generator=g)
    for epoch in range(3):
        bar = tqdm(range(0, len(data), 32), desc=f"epoch {epoch}", disable=rank != 0, mininterval=0.2)
        for i in bar:
            x = data[i:i + 32]
            loss = nn.functional.mse_loss(model(x + 0.3 * torch.randn_like(x)), x)
            opt.zero_grad(); loss.backward(); opt.step()
            bar.set_postfix(loss=f"{loss.item():.4f}")
        bar.close()
        if rank == 0:
            path = os.path.join(ckpt_dir, f"dae_epoch{epoch}.pt")
            torch.save({"epoch": epoch, "model": model.module.state_dict(), "opt": opt.state_dict()}, path)
            print(f"saved {path}", flush=True)
        dist.barrier()
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
