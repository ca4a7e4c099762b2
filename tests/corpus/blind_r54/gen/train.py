# Tiny DDP (gloo) trainer with injectable failures. Config from env vars.
import os, sys, time, datetime, signal, logging, warnings, math
import torch, torch.nn as nn, torch.distributed as dist

E = os.environ.get
RANK = int(E("RANK", E("SLURM_PROCID", "0"))); WORLD = int(E("WORLD_SIZE", E("SLURM_NTASKS", "1")))
LOCAL = int(E("LOCAL_RANK", E("SLURM_LOCALID", "0")))
FAIL = E("FAIL", ""); FR = [int(x) for x in E("FAIL_RANK", "-1").split(",")]; FS = int(E("FAIL_STEP", "10**9") if E("FAIL_STEP") else 10**9)
STEPS = int(E("STEPS", "60")); STYLE = E("STYLE", "iso"); SLEEP = float(E("STEP_SLEEP", "0.05"))
CHATTY = E("CHATTY", "1") == "1"; TQDM = E("TQDM", "0") == "1"; CKDIR = E("CKPT_DIR", "/tmp/r54/ckpt")
me = RANK in FR

class F(logging.Formatter):
    def format(self, r):
        m = r.getMessage()
        if r.exc_info: m += "\n" + self.formatException(r.exc_info)
        if STYLE == "iso":
            return f"{datetime.datetime.now().isoformat(timespec='milliseconds')} [{r.levelname}] [rank{RANK}] {m}"
        if STYLE == "glog":
            t = datetime.datetime.now(); return f"{r.levelname[0]}{t:%m%d %H:%M:%S.%f} {os.getpid()} train.py:{r.lineno}] [rank {RANK}] {m}"
        if STYLE == "epoch":
            return f"{time.time():.3f} rank={RANK} {r.levelname.lower()} {m}"
        return f"[{RANK}] {m}"
h = logging.StreamHandler(sys.stdout); h.setFormatter(F()); log = logging.getLogger("train"); log.addHandler(h); log.setLevel(logging.INFO)
if E("RANK_LOG"):
    fh = logging.FileHandler(E("RANK_LOG").format(rank=RANK)); fh.setFormatter(F()); log.addHandler(fh)

if E("ENV_DUMP") == "1" and RANK == 0:
    for k in sorted(os.environ):
        if k.startswith(("MASTER", "TORCH", "OMP", "SLURM", "WORLD", "LOCAL", "GLOO", "NCCL", "PYTHON")):
            log.info(f"env {k}={os.environ[k]}")

if FAIL == "cgroup_oom" and me:
    cg = E("CGROUP", "/sys/fs/cgroup/memory/r54oom")
    open(cg + "/cgroup.procs", "w").write(str(os.getpid()))
    log.info(f"moved pid {os.getpid()} into memory cgroup {cg}")

if FAIL == "hub" and me:
    from huggingface_hub import hf_hub_download
    log.info("fetching tokenizer google-bert/bert-base-uncased from hub")
    hf_hub_download("google-bert/bert-base-uncased", "tokenizer.json", cache_dir="/tmp/r54/hfcache")
tmo = datetime.timedelta(seconds=float(E("PG_TIMEOUT", "30")))
dist.init_process_group("gloo", timeout=tmo)
log.info(f"initialized process group world_size={WORLD} backend=gloo")
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
if FAIL == "ckpt_load_mismatch" and me:
    sd = torch.load(E("CKPT_FILE"), weights_only=True); model.load_state_dict(sd)
if FAIL == "ckpt_corrupt" and me:
    sd = torch.load(E("CKPT_FILE"), weights_only=True); model.load_state_dict(sd)
ddp = model if E("NO_DDP") == "1" else nn.parallel.DistributedDataParallel(model)
opt = torch.optim.SGD(ddp.parameters(), lr=float(E("LR", "0.01")))
g = torch.Generator().manual_seed(RANK)
bar = None
if TQDM and RANK == 0:
    from tqdm import tqdm; bar = tqdm(total=STEPS, desc="train", file=sys.stderr, mininterval=0.2)
attempt = int(E("TORCHELASTIC_RESTART_COUNT", "0"))
hog = []
for step in range(1, STEPS + 1):
    x = torch.randn(8, 16, generator=g); y = x.sum(1, keepdim=True) * 0.1
    if E("WARN_EVERY_STEP") == "1":
        warnings.warn(f"step {step}: torch.cuda.amp.GradScaler is deprecated; use torch.amp.GradScaler('cuda') instead", FutureWarning)
    if step == FS and me:
        if E("FAIL_DELAY"): time.sleep(float(E("FAIL_DELAY")))
        if FAIL == "exception":
            cfg = {"lr": 0.01}; log.info("adjusting warmup schedule"); _ = cfg["warmup_ratio"] * step
        elif FAIL == "data":
            path = E("DATA_DIR", "/tmp/r54/data") + f"/shard-{step:05d}.jsonl"; log.info(f"opening {path}"); open(path).read()
        elif FAIL == "data_bad":
            import json; json.loads('{"input_ids": [101, 2023, 2003, "text": }')
        elif FAIL == "hang":
            log.info("waiting for eval barrier"); time.sleep(10**6)
        elif FAIL == "exit0":
            log.info("max_samples reached on this shard, leaving training loop"); sys.exit(0)
        elif FAIL == "mismatch":
            dist.all_reduce(torch.zeros(7))
        elif FAIL == "mismatch_op":
            dist.broadcast(torch.zeros(1), src=0)
        elif FAIL == "nan":
            x = x * float("nan")
        elif FAIL == "shape":
            x = torch.randn(8, 12)
        elif FAIL == "dtype":
            x = x.double()
        elif FAIL == "selfkill":
            os.kill(os.getpid(), signal.SIGKILL)
        elif FAIL == "cgroup_oom" or FAIL == "memhog":
            log.info("building eval cache in memory")
            for _ in range(400): hog.append(torch.ones(2_000_000)); time.sleep(0.01)
        elif FAIL == "ckpt_save":
            os.makedirs(CKDIR, exist_ok=True); p = f"{CKDIR}/step{step}_rank{RANK}.pt"; log.info(f"saving checkpoint to {p}")
            torch.save({"model": model.state_dict(), "pad": torch.randn(int(E("CKPT_PAD", "4000000")))}, p, _use_new_zipfile_serialization=E("CKPT_LEGACY") != "1")
        elif FAIL == "emfile":
            fs = []
            d = E("DATA_DIR", "/tmp/r54/data")
            log.info(f"indexing shards in {d}")
            for i in range(100000): fs.append(open(f"{d}/idx{i % 50}.bin", "a"))
        elif FAIL == "dlkill":
            class DS(torch.utils.data.Dataset):
                def __len__(self): return 64
                def __getitem__(self, i):
                    if i == 37: os.kill(os.getpid(), signal.SIGKILL)
                    return [float(i)] * 16 if E("DL_LIST") == "1" else torch.randn(16)
            log.info("starting eval dataloader with 2 workers")
            for b in torch.utils.data.DataLoader(DS(), batch_size=4, num_workers=2): pass
        elif FAIL == "elastic_once" and attempt == 0:
            raise RuntimeError("loader state mismatch after resume (transient), failing attempt")
    if FAIL == "handled" and me and step % 20 == 0:
        try:
            import json; json.loads("{bad json")
        except Exception:
            log.exception(f"skipping malformed sample at step {step}, continuing")
    if FAIL == "retry" and me and step == FS:
        import socket
        for a in range(1, 4):
            try:
                s = socket.create_connection(("127.0.0.1", 1), timeout=2) if a < 3 else None
                log.info(f"metrics endpoint reachable on attempt {a}"); break
            except OSError as e:
                log.warning(f"push metrics attempt {a}/3 failed: {e!r}; retrying in 1s"); time.sleep(1)
    out = ddp(x); loss = ((out - y) ** 2).mean()
    if FAIL in ("nan", "nan_guard") and not torch.isfinite(loss):
        log.error(f"non-finite loss {loss.item()} at step {step}")
        raise FloatingPointError(f"Loss is NaN at step {step}, stopping (nan guard)")
    if FAIL == "skipinf" and step <= 3:
        log.warning(f"gradient overflow detected at step {step}, skipping step and reducing loss scale to {2**(16-step)}")
    opt.zero_grad(); loss.backward()
    if E("NO_DDP") == "1":
        for p_ in model.parameters(): dist.all_reduce(p_.grad); p_.grad /= WORLD
    opt.step()
    if CHATTY or step % 10 == 0:
        log.info(f"step {step}/{STEPS} loss={loss.item():.4f} lr={opt.param_groups[0]['lr']:.4g} tokens/s={8*16/SLEEP:.0f}")
    if bar: bar.update(1)
    if FAIL == "earlystop" and step == FS:
        t = torch.tensor([1.0]); dist.all_reduce(t)
        log.info(f"early stopping: val loss did not improve for 5 evals, stopping at step {step}"); break
    time.sleep(SLEEP)
if bar: bar.close()
dist.barrier()
log.info("training complete")
dist.destroy_process_group()
