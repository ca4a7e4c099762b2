# sbatch + srun (3 tasks), JSON-lines logging. Only rank 0 writes checkpoints (full state to
# tmp then os.replace into the NFS checkpoint dir). At step 60 the NFS export went stale
# (simulated with an LD_PRELOAD shim on rename) -> OSError ESTALE on rank 0. Ranks 1-2 wait in
# the post-save barrier and lose their peer.
import datetime, json, logging, os, sys, time
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
class J(logging.Formatter):
    def format(self, r):
        d = {"time": datetime.datetime.fromtimestamp(r.created).isoformat(), "level": r.levelname,
             "logger": r.name, "rank": rank, "message": r.getMessage()}
        if r.exc_info: d["exc_info"] = self.formatException(r.exc_info)
        return json.dumps(d)
h = logging.StreamHandler(sys.stdout); h.setFormatter(J())
logging.basicConfig(level=logging.INFO, handlers=[h])
log = logging.getLogger("trainer")
CK = os.environ["CKPT_DIR"]

def save(model, opt, step):
    path = os.path.join(CK, f"step_{step:07d}.pt")
    tmp = path + ".tmp"
    t0 = time.time()
    log.info("saving checkpoint to %s", path)
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step}, tmp)
    os.replace(tmp, path)
    log.info("checkpoint saved in %.2fs", time.time() - t0)

def main():
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29908", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=45))
    log.info("joined process group (world_size=%d)", world)
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(1, 101):
        x = torch.randn(32, 64); y = torch.randint(0, 10, (32,))
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            log.info("step=%d loss=%.4f", step, loss.item())
        if step % 30 == 0:
            if rank == 0:
                save(model.module, opt, step)
            dist.barrier()
        time.sleep(0.05)
    log.info("training finished")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
