# HEALTHY (in the end). torchrun --max-restarts 1, 3 ranks, plain console. Attempt 0: rank 1's
# remote data fetch times out at step 55 (uncaught -> traceback, worker group fails, torchrun
# restarts the group). Attempt 1 resumes from the step-40 checkpoint and finishes all 100
# steps; torchrun exits 0.
import datetime, logging, os, sys, time
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"]); attempt = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s [rank{rank}|attempt{attempt}] %(levelname)s: %(message)s")
log = logging.getLogger()
CK = os.environ["CKPT"]

class RemoteTimeout(ConnectionError):
    pass

def fetch(step):
    if rank == 1 and attempt == 0 and step == 55:
        raise RemoteTimeout("HTTPSConnectionPool(host='blobs.data.internal', port=443): Read timed out. (read timeout=30)")
    return torch.randn(16, 40)

def main():
    # per-attempt key prefix on the agent's store (keys of the failed attempt must not be reused)
    base = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]), is_master=False,
                         timeout=datetime.timedelta(seconds=60))
    store = dist.PrefixStore(f"train/attempt{attempt}", base)
    dist.init_process_group("gloo", store=store, rank=rank, world_size=int(os.environ["WORLD_SIZE"]),
                            timeout=datetime.timedelta(seconds=60))
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(40, 80), nn.ReLU(), nn.Linear(80, 40))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    start = 0
    if os.path.exists(CK):
        sd = torch.load(CK, map_location="cpu")
        model.load_state_dict(sd["model"]); opt.load_state_dict(sd["opt"]); start = sd["step"]
        log.info("resumed from checkpoint %s at step %d", CK, start)
    else:
        log.info("no checkpoint found, starting from scratch")
    model = nn.parallel.DistributedDataParallel(model)
    for step in range(start + 1, 101):
        x = fetch(step)
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            log.info("step %d/100 loss %.4f", step, loss.item())
        if step % 40 == 0:
            if rank == 0:
                torch.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "step": step}, CK + ".tmp")
                os.replace(CK + ".tmp", CK); log.info("checkpoint saved at step %d", step)
            dist.barrier()
        time.sleep(0.05)
    log.info("training complete")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
