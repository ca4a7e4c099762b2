# each rank writes its model/optimizer shard to its node-local NVMe (one device per local rank), then rank 0 uploads
import os, sys, time, datetime, logging, json
import torch, torch.distributed as dist
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
log = logging.getLogger()
def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank, lr_ = dist.get_rank(), int(os.environ["LOCAL_RANK"])
    scratch = os.path.join(os.environ["NVME_ROOT"], f"nvme{lr_}", "ckpt")
    os.makedirs(scratch, exist_ok=True)
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 256)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(1, 121):
        x = torch.randn(16, 256)
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            print(json.dumps({"step": step, "rank": rank, "loss": round(loss.item(), 5)}), flush=True)
        if step % 50 == 0:
            t = time.time()
            path = os.path.join(scratch, f"shard_{rank:03d}_step{step}.pt")
            torch.save({"model": model.module.state_dict(), "optim": opt.state_dict()}, path)
            log.info("rank %d saved %s (%.1f MB, %.2fs)", rank, path, os.path.getsize(path) / 1e6, time.time() - t)
            dist.barrier()
        time.sleep(0.03)
    dist.destroy_process_group()
if __name__ == "__main__":
    main()
