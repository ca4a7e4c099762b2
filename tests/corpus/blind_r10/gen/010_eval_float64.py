# tabular MLP; periodic validation on rank 0 using the exported validation features (numpy)
import os, logging, numpy as np, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta

logging.basicConfig(level=logging.INFO, format="%(asctime)s - %(name)s - %(levelname)s - %(message)s")
log = logging.getLogger("tabular")

def export_val(path):
    rng = np.random.default_rng(7)
    np.save(path, rng.normal(size=(500, 20)))          # float64, as pandas.to_numpy() gives

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    if rank == 0:
        export_val("val_features.npy")
        log.info("exported validation features")
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(20, 64), nn.SiLU(), nn.Linear(64, 1))
    model = nn.parallel.DistributedDataParallel(net)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 101):
        x = torch.randn(64, 20, generator=g); y = x[:, :3].sum(1, keepdim=True)
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % 10 == 0:
            log.info("step %d train_mse %.4f", step, loss.item())
        if step % 30 == 0:
            if rank == 0:
                xv = torch.from_numpy(np.load("val_features.npy"))
                with torch.no_grad():
                    pv = net(xv)
                log.info("step %d val_mean_pred %.4f", step, pv.mean().item())
            dist.barrier()
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
