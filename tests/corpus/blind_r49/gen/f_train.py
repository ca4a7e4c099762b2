"""One training program with several real failure modes, chosen by --mode (rank picked by --bad-rank)."""
import argparse, json, logging, os, resource, sys, threading, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from common import init, MLP, make_data

ap = argparse.ArgumentParser()
ap.add_argument("--mode", required=True)
ap.add_argument("--bad-rank", type=int, default=-1)
ap.add_argument("--steps", type=int, default=60)
ap.add_argument("--sleep", type=float, default=0.0)
ap.add_argument("--data", default="")
ap.add_argument("--ckpt", default="")
ap.add_argument("--cgroup", default="")
ap.add_argument("--timeout", type=int, default=40)
a = ap.parse_args()

rank, world = init(timeout_s=a.timeout)
bad = rank == a.bad_rank
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s %(levelname)s [rank {rank}] %(message)s", stream=sys.stdout)
log = logging.getLogger("train")
d_h = 512 if a.mode == "enospc" else 64
class Plain(torch.nn.Module):  # manual gradient averaging (DDP is not used with DETAIL debugging here)
    def __init__(self, m):
        super().__init__(); self.module = m
    def forward(self, x):
        return self.module(x)
model = Plain(MLP(d_h=d_h)) if a.mode == "mismatch" else DDP(MLP(d_h=d_h)); opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
x, y = make_data(n=1024, seed=20 + rank)
log.info("setup done: world=%d params=%d", world, sum(p.numel() for p in model.parameters()))

if a.mode == "data":
    shard = os.path.join(a.data, f"shard-{rank:05d}.jsonl")
    f = open(shard, "rb")
    def next_batch(step):
        raw = f.readline()
        rec = json.loads(raw.decode("utf-8"))
        ids = torch.tensor(rec["tokens"], dtype=torch.float32)
        return ids[:32].repeat(32, 1), torch.tensor(rec["labels"])[:32]
elif a.mode == "oom":
    hoard = []
    if bad:
        with open(os.path.join(a.cgroup, "cgroup.procs"), "w") as cg:
            cg.write(str(os.getpid()))
elif a.mode == "bgthread":
    import queue
    ema = {k: v.detach().clone() for k, v in model.module.state_dict().items()}
    if bad:  # this rank restored its EMA from an older run whose head had 12 classes
        ema["net.4.weight"] = torch.zeros(12, d_h); ema["net.4.bias"] = torch.zeros(12)
    q = queue.Queue(); errs = []
    def ema_loop():
        while True:
            sd = q.get()
            if sd is None:
                return
            for k, v in sd.items():
                ema[k].mul_(0.99).add_(v, alpha=0.01)
    def hook(args):
        errs.append(args.exc_value); threading.__excepthook__(args)
    threading.excepthook = hook
    th = threading.Thread(target=ema_loop, name="ema-updater", daemon=True); th.start()

for step in range(1, a.steps + 1):
    if a.mode == "data":
        xb, yb = next_batch(step)
        xb = xb / 100.0
    else:
        i = (step * 32) % 992
        xb, yb = x[i:i + 32].clone(), y[i:i + 32]
    if a.mode == "nan" and bad and step == 23:
        xb[7, 3] = float("inf")  # a corrupt feature row in this rank's shard
    if a.mode == "hang" and bad and step == 12:
        threading.Event().wait()  # blocks forever waiting on a prefetch that never arrives
    if a.mode == "early" and bad and step == 18:
        log.info("no more samples in my shard after %d steps; leaving the training loop", step - 1)
        sys.exit(0)
    if a.mode == "mismatch" and step == 9:
        n = 11 if bad else 10
        stats = torch.zeros(n)  # per-class counts; this rank derived num_classes from its own shard
        dist.all_reduce(stats)
    if a.mode == "oom" and bad and step >= 5:
        hoard.append(torch.ones(64 * 1024 * 1024 // 4))  # 64 MiB of cached activations per step (leak)
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        log.info("activation cache: %d entries, max rss %.0f MiB", len(hoard), rss)
    out = model(xb)
    loss = F.cross_entropy(out, yb)
    if a.mode == "nan" and not torch.isfinite(loss):
        raise FloatingPointError(f"loss is {loss.item()} at step {step} (rank {rank}); aborting")
    opt.zero_grad(); loss.backward()
    if a.mode == "mismatch":
        for p_ in model.parameters():
            dist.all_reduce(p_.grad); p_.grad /= world
    opt.step()
    log.info("step %d loss %.4f", step, loss.item())
    if a.mode == "bgthread":
        if errs:
            raise RuntimeError("EMA updater thread died; refusing to continue without EMA weights") from errs[0]
        q.put({k: v.detach().clone() for k, v in model.module.state_dict().items()})
    if a.mode == "enospc" and step % 10 == 0 and rank == 0:
        path = os.path.join(a.ckpt, f"step_{step:06d}.pt")
        log.info("saving checkpoint to %s", path)
        torch.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "step": step}, path)
        log.info("checkpoint saved: %s (%.1f MB)", path, os.path.getsize(path) / 1e6)
    if a.sleep:
        time.sleep(a.sleep)
log.info("training finished")
dist.barrier(); dist.destroy_process_group()
