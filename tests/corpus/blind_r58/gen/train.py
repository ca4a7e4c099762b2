#!/usr/bin/env python
"""Tiny DDP-ish training script with injectable failures. Used by gen/run_*.sh.

Env / args:
  --mode   failure to inject (see inject())
  --bad    rank where it happens
  --fmt    print | logging | lognorank | json | tqdm | plain | file
  --steps  number of steps
  --timeout  process-group timeout seconds
"""
import argparse, os, sys, time, json, logging, signal, threading, queue, math, random
from datetime import timedelta

p = argparse.ArgumentParser()
p.add_argument("--mode", default="none")
p.add_argument("--bad", type=int, default=1)
p.add_argument("--fmt", default="print")
p.add_argument("--steps", type=int, default=12)
p.add_argument("--at", type=int, default=5, help="step at which to fail")
p.add_argument("--timeout", type=int, default=15)
p.add_argument("--outdir", default=".")
p.add_argument("--ckdir", default=None)
p.add_argument("--sleep", type=float, default=0.2)
p.add_argument("--spawn", type=int, default=0, help="use mp.spawn with this many procs")
p.add_argument("--port", type=int, default=0)
args, _ = p.parse_known_args()

import torch
import torch.nn as nn
import torch.distributed as dist


def get_rank_ws():
    for rk, wk in (("RANK", "WORLD_SIZE"), ("SLURM_PROCID", "SLURM_NTASKS")):
        if rk in os.environ and wk in os.environ:
            os.environ["RANK"], os.environ["WORLD_SIZE"] = os.environ[rk], os.environ[wk]
            return int(os.environ[rk]), int(os.environ[wk])
    return 0, 1


class Log:
    def __init__(self, rank, ws, fmt):
        self.rank, self.ws, self.fmt = rank, ws, fmt
        self.fh = None
        if fmt == "file":
            os.makedirs(args.outdir, exist_ok=True)
            self.fh = open(os.path.join(args.outdir, f"rank_{rank}.log"), "a", buffering=1)
            # stderr of this rank also goes to its file so tracebacks land there
            os.dup2(self.fh.fileno(), 2)
            os.dup2(self.fh.fileno(), 1)
        if fmt == "logging":
            logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                                format=f"%(asctime)s [RANK {rank}] %(levelname)s %(name)s: %(message)s")
        elif fmt == "lognorank":
            logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                                format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        self.lg = logging.getLogger("trainer")

    def __call__(self, msg, level="info"):
        f = self.fmt
        if f == "print":
            print(f"[rank{self.rank}]: {msg}", flush=True)
        elif f in ("logging", "lognorank"):
            getattr(self.lg, level)(msg)
            sys.stdout.flush()
        elif f == "json":
            print(json.dumps({"ts": round(time.time(), 3), "rank": self.rank, "level": level.upper(), "msg": msg}), flush=True)
        elif f == "plain":
            print(msg, flush=True)
        elif f == "tqdm":
            if self.rank == 0:
                print(msg, flush=True)
        elif f == "file":
            print(f"{time.strftime('%H:%M:%S')} {level.upper()} {msg}", flush=True)


def make_data(rank, n):
    g = torch.Generator().manual_seed(rank)
    return [(torch.randn(8, 16, generator=g), torch.randn(8, 4, generator=g)) for _ in range(n)]


from torch.distributed.elastic.multiprocessing.errors import record


@record
def main(rank=None, ws=None):
    if rank is None:
        rank, ws = get_rank_ws()
    else:
        os.environ["RANK"], os.environ["WORLD_SIZE"] = str(rank), str(ws)
    log = Log(rank, ws, args.fmt)
    mode, bad = args.mode, args.bad
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")

    if mode in ("healthy_scary", "healthy_metrics"):
        import warnings
        warnings.warn("torch.cuda.amp.GradScaler(args...) is deprecated. Please use torch.amp.GradScaler('cuda', args...) instead.", FutureWarning)
        log("NCCL_DEBUG=INFO requested but backend is gloo; error_on_nan=False, fail_on_error=False")
    log(f"starting pid={os.getpid()} world_size={ws} mode-tag=run host={os.uname().nodename}")
    if mode == "import_missing":
        import flash_attn_cuda_ext  # noqa
    if mode == "hub" :
        from transformers import AutoTokenizer
        if rank == 0:
            log("downloading tokenizer meta-llama/Llama-2-7b-hf from the hub")
            AutoTokenizer.from_pretrained("meta-llama/Llama-2-7b-hf")
    if mode == "emfile" and rank == bad:
        import resource
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    if mode == "ulimit_v" and rank == bad:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))
    if mode == "port_wrong" and rank == bad:
        os.environ["MASTER_PORT"] = str(int(os.environ["MASTER_PORT"]) + 7)

    if mode == "sigterm_handler":
        def _on_term(signum, frame):
            log(f"received signal {signal.Signals(signum).name}: job is being preempted, writing emergency checkpoint and exiting", "warning")
            time.sleep(0.5)
            log("emergency checkpoint written to /tmp/ckpt/preempt_latest.pt", "warning")
            sys.exit(0)
        signal.signal(signal.SIGTERM, _on_term)
    if os.environ.get("PG_FILE_INIT"):
        # one rendezvous file per torchelastic attempt, so a restarted group never sees the old attempt's keys
        init = f"file://{os.environ['PG_FILE_INIT']}.attempt{os.environ.get('TORCHELASTIC_RESTART_COUNT', '0')}"
        log(f"init_process_group via {init}")
        dist.init_process_group("gloo", init_method=init, rank=rank, world_size=ws, timeout=timedelta(seconds=args.timeout))
    else:
        dist.init_process_group("gloo", timeout=timedelta(seconds=args.timeout))
    log(f"process group initialised backend=gloo rank={rank}/{ws}")

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    if mode == "ckpt_load_mismatch":
        ck = os.path.join(args.ckdir, "model_step1000.pt")
        log(f"resuming from {ck}")
        sd = torch.load(ck)
        model.load_state_dict(sd)
    if mode == "ckpt_corrupt":
        ck = os.path.join(args.ckdir, f"shard_rank{rank}.pt")
        log(f"loading optimizer shard {ck}")
        torch.load(ck)
    if mode == "ckpt_missing" and rank == bad:
        ck = os.path.join(args.ckdir, f"shard_rank{rank}.pt")
        log(f"loading optimizer shard {ck}")
        torch.load(ck)
    elif mode == "ckpt_missing":
        log(f"loading optimizer shard {os.path.join(args.ckdir, f'shard_rank{rank}.pt')}")
        torch.load(os.path.join(args.ckdir, f"shard_rank{rank}.pt"))
    for prm in model.parameters():
        dist.broadcast(prm.data, 0)
    opt = torch.optim.SGD(model.parameters(), lr=float(os.environ.get("LR", "0.05")))
    nsteps = args.steps
    if mode == "uneven" and rank == bad:
        nsteps = args.at
    data = make_data(rank, nsteps)

    # background prefetch thread (used by mode=thread_crash)
    q = queue.Queue(maxsize=2)
    if mode == "thread_crash":
        def prefetch():
            for i, b in enumerate(data):
                if rank == bad and i == args.at:
                    rec = {"input_ids": [1, 2, 3], "labels": None}
                    # parsing the shard record fails inside the thread
                    length = len(rec["labels"])
                q.put(b)
        threading.Thread(target=prefetch, name="prefetch-0", daemon=True).start()

    it = range(nsteps)
    bar = None
    if args.fmt == "tqdm" and rank == 0:
        from tqdm import tqdm
        bar = tqdm(total=nsteps, desc="train", file=sys.stderr, mininterval=0)

    scale = 2.0 ** 16
    for step in it:
        if mode == "thread_crash":
            x, y = q.get()
        else:
            x, y = data[step]
        if rank == bad and step == args.at:
            inject(mode, rank, log, x, y, model)
        if mode == "nan" and rank == bad and step >= args.at:
            x = x.clone(); x[0, 0] = float("inf")
        out = model(x)
        loss = nn.functional.mse_loss(out, y)
        if mode == "diverge":
            loss = loss * (1.6 ** max(0, step - 3))
        if mode == "nan" and not torch.isfinite(loss):
            log(f"step {step} loss={loss.item()}", "error")
            raise FloatingPointError(f"Loss is {loss.item()} at step {step}; aborting (rank {rank})")
        opt.zero_grad()
        loss.backward()
        if mode == "lossscale":
            # dynamic loss scaler as in Megatron/DeepSpeed fp16 optimizers
            if step >= 2:
                scale /= 2.0
                log(f"[deepspeed] OVERFLOW! Rank {rank} Skipping step. Attempted loss scale: {scale*2:.0f}, reducing to {scale:g}", "warning")
                if scale < 1.0:
                    raise RuntimeError("Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.")
                dist.barrier()
                continue
        for prm in model.parameters():
            if mode == "mismatch_shape" and rank == bad and step == args.at:
                dist.all_reduce(prm.grad[:1].contiguous())
            elif mode == "mismatch_dtype" and rank == bad and step == args.at:
                dist.all_reduce(prm.grad.double())
            elif mode == "mismatch_op" and rank == bad and step == args.at:
                dist.broadcast(prm.grad, 0)
            else:
                dist.all_reduce(prm.grad)
            prm.grad /= ws
        opt.step()
        lv = loss.item()
        if mode == "diverge" and lv > 50:
            log(f"step {step} loss={lv:.3f} exceeds threshold; loss diverged", "error")
            raise RuntimeError(f"Training diverged: loss {lv:.2f} > 50 at step {step}")
        if bar is not None:
            bar.update(1); bar.set_postfix(loss=f"{lv:.4f}")
        msg = f"step {step} loss={lv:.4f}"
        if mode == "healthy_metrics":
            msg += f" val_error_rate={0.3/(step+1):.3f} grad_norm_errors=0"
        log(msg)
        if mode == "hang_slurm" and rank == bad and step == args.at:
            log("entering eval on rank-local subset")
            while True:
                pass
        time.sleep(args.sleep)
        if mode == "ckpt_hang" and step in (3, 6) and rank == 0:
            if step == 6:
                log("waiting for previous async checkpoint (step 3) to finish before starting a new one")
                saver.join()
            log(f"async checkpoint save started: step {step} -> {args.ckdir}/step{step}.pt")
            def _save(st=step):
                if rank == bad:
                    # writer thread gets stuck: opening a FIFO blocks until a reader appears (never)
                    fifo = os.path.join(args.ckdir, f"step{st}.pt")
                    os.mkfifo(fifo)
                    with open(fifo, "wb") as f:
                        torch.save(model.state_dict(), f)
                log(f"async checkpoint step {st} completed")
            saver = threading.Thread(target=_save, name="ckpt-writer", daemon=True)
            saver.start()
        if args.ckdir and mode in ("ckpt_rofs", "ckpt_enospc") and step == args.at and rank == 0:
            path = os.path.join(args.ckdir, f"checkpoint_step{step}.pt")
            log(f"saving checkpoint to {path}")
            big = {"model": model.state_dict(), "opt": opt.state_dict(), "extra": torch.zeros(2_000_000)}
            torch.save(big, path)
            log("checkpoint saved")
        if args.ckdir and mode in ("ckpt_rofs", "ckpt_enospc") and step == args.at:
            dist.barrier()
    if bar is not None:
        bar.close()
    log("training finished")
    dist.barrier()
    dist.destroy_process_group()
    log("done")


def inject(mode, rank, log, x, y, model):
    if mode == "valueerror":
        rec = "17,0.25,0.3,abc,0.9"
        vals = [float(v) for v in rec.split(",")]
    elif mode == "shape":
        w = torch.randn(24, 4)
        out = x @ w
    elif mode == "dtype":
        model(x.double())
    elif mode == "assert":
        n = x.shape[0] - 1
        assert n == x.shape[0], f"micro-batch size {n} does not divide global batch {x.shape[0]*4}"
    elif mode == "keyerror":
        from torch.utils.data import DataLoader
        samples = [{"input_ids": [1, 2, 3], "label": 0}, {"input_ids": [4, 5], "lable": 1}]
        def collate(batch):
            return {"input_ids": [b["input_ids"] for b in batch], "labels": torch.tensor([b["label"] for b in batch])}
        for b in DataLoader(samples, batch_size=2, collate_fn=collate, num_workers=int(os.environ.get("NW", "1"))):
            pass
    elif mode == "dl_bus":
        from torch.utils.data import DataLoader, Dataset
        class DS(Dataset):
            def __len__(self): return 64
            def __getitem__(self, i):
                if i == 37:
                    os.kill(os.getpid(), signal.SIGBUS)
                return torch.randn(16)
        for b in DataLoader(DS(), batch_size=8, num_workers=2):
            pass
    elif mode == "sigkill":
        os.kill(os.getpid(), signal.SIGKILL)
    elif mode == "sigsegv":
        import ctypes
        ctypes.string_at(0)
    elif mode == "sigabrt":
        os.abort()
    elif mode == "sleep":
        log("running rank-local validation")
        time.sleep(3600)
    elif mode == "deadlock":
        a, b = threading.Lock(), threading.Lock()
        a.acquire()
        def other():
            b.acquire(); time.sleep(0.1); a.acquire()
        threading.Thread(target=other, daemon=True).start()
        time.sleep(0.05)
        b.acquire()
    elif mode == "blockread":
        fifo = os.path.join("/tmp", f"b58_fifo_{os.getpid()}")
        os.mkfifo(fifo)
        log(f"reading shard index {fifo}")
        open(fifo).read()
    elif mode == "loop":
        i = 0
        while True:
            i = (i + 1) % 1000003
    elif mode == "barrier_skip":
        # this rank goes into an extra barrier that others never call
        dist.barrier()
    elif mode == "host_oom":
        log("building in-memory feature cache")
        chunks = []
        while True:
            chunks.append(torch.ones(64 * 1024 * 1024))  # 256 MiB each
    elif mode == "ulimit_v":
        log("materialising embedding table")
        t = torch.empty(1024 * 1024 * 1024, dtype=torch.float32)  # 4 GiB
        t.fill_(0)
    elif mode == "emfile":
        handles = []
        for i in range(200):
            handles.append(open(f"/proc/self/status"))
    elif mode == "device":
        model(x.to("meta"))
    elif mode == "exit0":
        log("no more samples in shard; leaving")
        sys.exit(0)
    elif mode == "healthy_scary":
        import traceback
        for attempt in range(1, 3):
            try:
                raise ConnectionError(f"HTTPSConnectionPool(host='metrics.internal', port=443): Max retries exceeded (attempt {attempt})")
            except ConnectionError:
                log("metrics upload failed, will retry in 0.1s:\n" + traceback.format_exc(), "warning")
                time.sleep(0.1)
        log("metrics upload succeeded on attempt 3")
        log("Gradient overflow. Skipping step, loss scaler 0 reducing loss scale to 32768.0 (warm-up)", "warning")
    elif mode == "restart_once":
        marker = os.path.join(args.outdir, ".failed_once")
        if not os.path.exists(marker):
            open(marker, "w").close()
            raise ConnectionResetError("transient: lost connection to feature server 10.0.0.12:9000")


def _entry(r, ws):
    main(r, ws)


if __name__ == "__main__":
    if args.spawn:
        import torch.multiprocessing as mp
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", str(args.port or 29871))
        mp.spawn(_entry, args=(args.spawn,), nprocs=args.spawn, join=True)
    else:
        main()
