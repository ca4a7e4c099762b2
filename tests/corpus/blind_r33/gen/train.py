import os, sys, time, json, math, signal, ctypes, datetime, logging, argparse
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import Dataset, DataLoader, DistributedSampler

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s [%(name)s] %(message)s")
log = logging.getLogger("train")

FAULT = os.environ.get("FAULT", "none")
FRANK = int(os.environ.get("FAULT_RANK", "1"))
FSTEP = int(os.environ.get("FAULT_STEP", "6"))
STEPS = int(os.environ.get("STEPS", "20"))
DATA = os.environ.get("DATA_DIR", "/work/blind/r33/data")
CKPT = os.environ.get("CKPT_DIR", "/tmp/r33ckpt")
TIMEOUT = int(os.environ.get("PG_TIMEOUT", "30"))

class JsonlDataset(Dataset):
    def __init__(self, rank):
        self.rank = rank
        shards = [f"{DATA}/shard-{i:03d}.jsonl" for i in range(4)]
        if FAULT == "missing_shard" and rank == FRANK:
            shards.append(f"{DATA}/shard-004.jsonl")
        self.lines = []
        for s in shards:
            with open(s) as f:
                self.lines += f.readlines()
        if FAULT == "bad_record":
            self.lines[7 * 16 + 3] = '{"x": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8], "y": 1.0, "text": "trunc\n'
    def __len__(self): return len(self.lines)
    def __getitem__(self, i):
        if FAULT == "worker_crash" and self.rank == FRANK and i == 5 * 8 + 1:
            os.kill(os.getpid(), signal.SIGKILL)
        rec = json.loads(self.lines[i])
        return torch.tensor(rec["x"], dtype=torch.float32), torch.tensor([rec["y"]], dtype=torch.float32)

def main(local_rank=None, world=None):
    if os.environ.get("SHARING"):
        torch.multiprocessing.set_sharing_strategy(os.environ["SHARING"])
    if local_rank is not None:  # mp.spawn
        os.environ["RANK"] = str(local_rank); os.environ["LOCAL_RANK"] = str(local_rank); os.environ["WORLD_SIZE"] = str(world)
    if "RANK" not in os.environ and "SLURM_PROCID" in os.environ:
        os.environ["RANK"] = os.environ["SLURM_PROCID"]; os.environ["WORLD_SIZE"] = os.environ["SLURM_NTASKS"]
        os.environ["LOCAL_RANK"] = os.environ.get("SLURM_LOCALID", "0")
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=TIMEOUT))
    rank, ws = dist.get_rank(), dist.get_world_size()
    log.info("rank %d/%d started pid=%d host=%s fault=%s", rank, ws, os.getpid(), os.uname().nodename, "configured")
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
    if FAULT == "load_mismatch":
        sd = torch.load(f"{CKPT}/init.pt")
        model.load_state_dict(sd)
    if FAULT == "load_corrupt":
        sd = torch.load(f"{CKPT}/latest.pt")
        model.load_state_dict(sd["model"])
    ddp = DDP(model)
    lr = float(os.environ.get("LR", "0.01"))
    opt = torch.optim.SGD(ddp.parameters(), lr=lr)
    ds = JsonlDataset(rank)
    nw = int(os.environ.get("WORKERS", "0"))
    dl = DataLoader(ds, batch_size=8, sampler=DistributedSampler(ds, shuffle=False), num_workers=nw)
    it = iter(dl)
    cfg = {"lr": lr, "warmup": 2}
    for step in range(STEPS):
        try:
            x, y = next(it)
        except StopIteration:
            it = iter(dl); x, y = next(it)
        if FAULT == "nan" and rank == FRANK and step >= FSTEP:
            x = x * float("inf")
        if FAULT == "step_exc" and rank == FRANK and step == FSTEP:
            sched = cfg["lr_schedule"]
        if FAULT == "shape" and rank == FRANK and step == FSTEP:
            x = torch.cat([x, x[:, :2]], dim=1)
        if FAULT == "dtype" and rank == FRANK and step == FSTEP:
            x = x.double()
        if FAULT == "exit0" and rank == FRANK and step == FSTEP:
            log.info("rank %d: finished my shard, exiting", rank); sys.exit(0)
        if FAULT == "sigkill" and rank == FRANK and step == FSTEP:
            os.kill(os.getpid(), signal.SIGKILL)
        if FAULT == "segv" and rank == FRANK and step == FSTEP:
            ctypes.string_at(0)
        if FAULT == "abort" and rank == FRANK and step == FSTEP:
            os.abort()
        if FAULT == "hang" and rank == FRANK and step == FSTEP:
            fifo = os.environ.get("HANG_FIFO", "/tmp/r33fifo")
            if not os.path.exists(fifo): os.mkfifo(fifo)
            open(fifo).read()
        if FAULT == "skip_coll" and rank == FRANK and step == FSTEP:
            pass
        elif FAULT in ("skip_coll",) and step == FSTEP:
            t = torch.ones(4); dist.all_reduce(t)
        if FAULT == "size_mismatch" and step == FSTEP:
            t = torch.ones(16 if rank == FRANK else 8); dist.all_reduce(t)
        if FAULT == "op_mismatch" and step == FSTEP:
            t = torch.ones(8)
            if rank == FRANK: dist.all_gather([torch.zeros(8) for _ in range(ws)], t)
            else: dist.all_reduce(t)
        if FAULT == "oom" and rank == FRANK and step == FSTEP:
            hog = []
            for _ in range(200): hog.append(torch.ones(64 * 1024 * 1024 // 4 * 4))
        out = ddp(x)
        loss = nn.functional.mse_loss(out, y)
        opt.zero_grad(); loss.backward(); opt.step()
        lt = loss.detach().clone(); dist.all_reduce(lt); lt /= ws
        if rank == 0 or FAULT == "nan":
            log.info("step %d loss %.4f lr %.4g", step, lt.item() if rank == 0 else loss.item(), lr)
        if not math.isfinite(loss.item()):
            raise FloatingPointError(f"rank {rank}: non-finite loss {loss.item()} at step {step}")
        if os.environ.get("DIVERGE_CHECK") and rank == 0 and step > 10 and lt.item() > 1e6:
            raise RuntimeError(f"training diverged: loss {lt.item():.3e} at step {step}")
        if step == STEPS // 2 and os.environ.get("SAVE"):
            if rank == 0 or FAULT in ("disk_full", "ro_ckpt"):
                path = f"{CKPT}/step{step}-rank{rank}.pt" if FAULT in ("disk_full","ro_ckpt") else f"{CKPT}/step{step}.pt"
                if FAULT in ("disk_full", "ro_ckpt") and rank == FRANK:
                    path = os.environ["BAD_CKPT"] + f"/step{step}-rank{rank}.pt"
                log.info("saving checkpoint to %s", path)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                blob = {"model": model.state_dict(), "opt": opt.state_dict(), "step": step, "big": torch.randn(200000)}
                if os.environ.get("SAVE_VIA_BUFFER"):
                    import io
                    buf = io.BytesIO(); torch.save(blob, buf)
                    with open(path, "wb") as f:
                        f.write(buf.getvalue())
                else:
                    torch.save(blob, path)
            dist.barrier()
        time.sleep(float(os.environ.get("STEP_SLEEP", "0.2")))
    dist.barrier()
    log.info("rank %d done", rank)
    dist.destroy_process_group()

if __name__ == "__main__":
    if os.environ.get("SPAWN"):
        import torch.multiprocessing as mp
        n = int(os.environ["SPAWN"])
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        mp.spawn(main, args=(n,), nprocs=n, join=True)
    else:
        main()
