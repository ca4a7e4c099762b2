"""Plain torch DDP trainer (gloo, CPU) with switchable behaviours.

Usage: python train.py --mode MODE [--style print|logging|json] [--steps N] ...
Rank/world come from torchrun env (RANK/WORLD_SIZE), Slurm (SLURM_PROCID/SLURM_NTASKS) or --spawn N (mp.spawn).
"""
import argparse, datetime, json, logging, os, signal, sys, threading, time, queue, warnings, math

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--mode", default="plain")
p.add_argument("--style", default="print")
p.add_argument("--steps", type=int, default=60)
p.add_argument("--sleep", type=float, default=0.03)
p.add_argument("--timeout", type=int, default=30)
p.add_argument("--spawn", type=int, default=0)
p.add_argument("--port", type=int, default=54100)
p.add_argument("--bad-rank", type=int, default=1)
p.add_argument("--bad-step", type=int, default=25)
p.add_argument("--ckpt", default="")
p.add_argument("--resume", default="")
p.add_argument("--hidden", type=int, default=32)
p.add_argument("--tqdm", action="store_true")
args = p.parse_args()

CONFIG = {
    "model": {"hidden": args.hidden, "layers": 2, "dropout": 0.1},
    "optim": {"lr": 0.05, "weight_decay": 0.0, "grad_clip": 1.0},
    "dist": {"backend": "gloo", "timeout_s": args.timeout, "nccl_timeout_s": 1800, "kill_on_oom": False,
             "oom_retry": 0, "store_connect_retries": 5},
    "runtime": {"steps": args.steps, "log_every": 5, "fail_fast": True, "abort_on_nan": args.mode == "nan_abort",
                "error_budget": 0, "watchdog_kill_after_s": 600},
}


def setup_log(rank):
    if args.style == "logging":
        logging.basicConfig(level=logging.INFO,
                            format=f"%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s", stream=sys.stdout)
    log = logging.getLogger("trainer")

    def out(msg, level="INFO", **kv):
        if args.style == "json":
            rec = {"ts": datetime.datetime.now().isoformat(timespec="milliseconds"), "level": level, "rank": rank,
                   "msg": msg}
            rec.update(kv)
            print(json.dumps(rec), flush=True)
        elif args.style == "logging":
            extra = " ".join(f"{k}={v}" for k, v in kv.items())
            log.log(getattr(logging, level), f"{msg} {extra}".strip())
        else:
            extra = " ".join(f"{k}={v}" for k, v in kv.items())
            print(f"[rank {rank}] {msg} {extra}".strip(), flush=True)
    return out


class Net(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(16, h), nn.ReLU(), nn.Linear(h, 1))

    def forward(self, x):
        return self.body(x)


def batch(step, rank, gen):
    x = torch.randn(32, 16, generator=gen)
    y = x[:, :4].sum(dim=1, keepdim=True) * 0.5
    return x, y


def main(local_rank=None):
    if local_rank is not None:  # mp.spawn
        os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(args.port), RANK=str(local_rank),
                          WORLD_SIZE=str(args.spawn), LOCAL_RANK=str(local_rank))
    if "RANK" not in os.environ and "SLURM_PROCID" in os.environ:
        os.environ["RANK"] = os.environ["SLURM_PROCID"]
        os.environ["WORLD_SIZE"] = os.environ["SLURM_NTASKS"]
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", str(args.port))
    rank = int(os.environ["RANK"])
    world = int(os.environ["WORLD_SIZE"])
    out = setup_log(rank)
    mode = args.mode

    if mode == "slow_master" and rank == 0:
        out("waiting for shared filesystem to settle before starting the store")
        time.sleep(8)
    if rank == 0:
        out("config: " + json.dumps(CONFIG))
    if mode == "config_dump" and rank == 0:
        for sec, kv in CONFIG.items():
            for k, v in kv.items():
                print(f"  {sec}.{k} = {v}", flush=True)

    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.timeout))
    out("process group ready", world_size=world)

    if mode in ("warnings", "config_dump"):
        warnings.warn("torch.cuda.amp.GradScaler(args...) is deprecated. Please use torch.amp.GradScaler('cuda', args...) instead.", FutureWarning)
        warnings.warn("The epoch parameter in `scheduler.step()` was not necessary and is being deprecated", UserWarning)
        warnings.warn("Performance hint: gloo backend on CPU is slow for large all_reduce; consider NCCL on GPU", RuntimeWarning)

    torch.manual_seed(0)
    model = Net(args.hidden)
    start = 0
    if args.resume:
        sd = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(sd["model"])
        start = sd["step"]
        out(f"Resuming from checkpoint {args.resume}", step=start)
    ddp = DDP(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=CONFIG["optim"]["lr"])
    gen = torch.Generator().manual_seed(1000 + rank)
    lossf = nn.MSELoss()

    if mode == "bg_thread_data":
        q = queue.Queue(maxsize=4)

        def prefetch():
            for i in range(10 ** 6):
                if rank == args.bad_rank and i == args.bad_step:
                    with open(f"/work/blind/r45/work/data/shard-{i:05d}.jsonl") as f:  # missing shard
                        f.read()
                q.put(batch(i, rank, gen))
        threading.Thread(target=prefetch, name="prefetch", daemon=True).start()

    if mode == "metrics_thread":
        def uploader():
            import socket
            for attempt in range(1, 4):
                try:
                    socket.create_connection(("127.0.0.1", 54999), timeout=2)
                except OSError:
                    logging.getLogger("metrics").exception(
                        "metrics upload failed (attempt %d/3), retrying in 1s", attempt)
                    time.sleep(1)
            logging.getLogger("metrics").error("metrics sink unreachable, continuing without remote metrics")
        logging.basicConfig(level=logging.INFO)
        threading.Thread(target=uploader, daemon=True).start()

    loader_it = None
    if mode in ("data_error", "dl_kill", "dl_restart"):
        from torch.utils.data import DataLoader, Dataset

        class JsonlDS(Dataset):
            def __len__(self):
                return 100000

            def __getitem__(self, i):
                line = json.dumps({"x": [0.1] * 16, "y": 0.5})
                if mode == "data_error" and rank == args.bad_rank and i == args.bad_step * 32 + 5:
                    line = line[:40]  # truncated record in the shard
                if mode in ("dl_kill", "dl_restart") and rank == args.bad_rank and i == args.bad_step * 32 + 5:
                    flag = "/work/blind/r45/work/dl_restart.flag"
                    if mode == "dl_kill" or not os.path.exists(flag):
                        open(flag, "w").close()
                        os.kill(os.getpid(), signal.SIGKILL)
                rec = json.loads(line)
                return torch.tensor(rec["x"]) + 0.01 * torch.randn(16), torch.tensor([rec["y"]])

        def make_loader():
            return iter(DataLoader(JsonlDS(), batch_size=32, num_workers=2))
        loader_it = make_loader()

    it = range(start, start + args.steps) if not args.resume else range(start, args.steps)
    bar = None
    if args.tqdm and rank == 0:
        from tqdm import tqdm
        bar = tqdm(total=len(it), desc="train", file=sys.stderr, mininterval=0.2)
    lr = CONFIG["optim"]["lr"]
    for step in it:
        if mode == "restart_once" and rank == args.bad_rank and step == args.bad_step \
                and os.environ.get("TORCHELASTIC_RESTART_COUNT", "0") == "0":
            raise OSError(5, "Input/output error", "/work/blind/r45/work/shards/train-00003.bin")
        if mode == "bg_thread_data":
            x, y = q.get(timeout=20)
        elif loader_it is not None:
            try:
                x, y = next(loader_it)
            except RuntimeError as e:
                if mode != "dl_restart" or "DataLoader worker" not in str(e):
                    raise
                logging.getLogger("trainer.data").warning("DataLoader worker died (%s); recreating the loader and retrying the batch", e)
                loader_it = make_loader()
                x, y = next(loader_it)
        else:
            x, y = batch(step, rank, gen)
        if mode == "nan_skip" and step in (17, 18):
            x = x.clone(); x[0, 0] = float("inf")
        if mode == "spike":
            cur = lr * (12 if 30 <= step < 33 else 1)
            for g in opt.param_groups:
                g["lr"] = cur
        if mode == "blocked" and rank == args.bad_rank and step == args.bad_step:
            ev = threading.Event()
            ev.wait()  # stuck: waits for an event nobody sets
        if mode == "early_exit" and rank == args.bad_rank and step == args.bad_step:
            out("no more samples in my shard, done")
            sys.exit(0)
        if mode == "mismatch" and rank == args.bad_rank and step == args.bad_step:
            out("last partial batch: gathering variable-length predictions")
            t = torch.zeros(7)
            dist.all_reduce(t)
        if mode == "mem" and rank == args.bad_rank and step == args.bad_step:
            cg = "/sys/fs/cgroup/memory/process_api/8a1837241079dc98ed92b491f019186f/t45"
            with open(cg + "/memory.limit_in_bytes", "w") as f:
                f.write(str(1500 * 1024 * 1024))
            with open(cg + "/memory.memsw.limit_in_bytes" if os.path.exists(cg + "/memory.memsw.limit_in_bytes") else os.devnull, "w") as f:
                f.write(str(1500 * 1024 * 1024))
            with open(cg + "/cgroup.procs", "w") as f:
                f.write(str(os.getpid()))
            out("building feature cache for eval")
            cache = []
            for _ in range(100):
                cache.append(torch.ones(64 * 1024 * 1024 // 4))  # 64 MB each
        out_ = ddp(x)
        loss = lossf(out_, y)
        if mode == "nan_abort" and rank == args.bad_rank and step >= args.bad_step:
            loss = loss * torch.tensor(float("nan"))
        if mode == "nan_abort" and not torch.isfinite(loss):
            raise FloatingPointError(f"Loss is {loss.item()} at step {step} on rank {rank}; aborting (abort_on_nan=True)")
        opt.zero_grad()
        loss.backward()
        if mode == "nan_skip":
            gn = torch.nn.utils.clip_grad_norm_(ddp.parameters(), 1.0)
            if not torch.isfinite(gn):
                out(f"WARNING non-finite grad norm ({gn.item()}) at step {step}: skipping optimizer step", level="WARNING")
                opt.zero_grad()
                continue
        opt.step()
        if mode == "caught_exc" and step == 20 and rank == 0:
            try:
                json.loads("{'bad': json}")
            except Exception:
                logging.getLogger("trainer.hooks").exception("on_step_end hook 'push_to_dashboard' raised; hook disabled")
        if bar:
            bar.update(1)
        if step % 5 == 0:
            t = loss.detach().clone(); dist.all_reduce(t); t /= world
            kv = dict(step=step, loss=f"{t.item():.4f}", lr=opt.param_groups[0]["lr"])
            if mode in ("metrics_names", "config_dump"):
                kv.update(train_error=f"{t.item():.4f}", fail_rate="0.000", timeout_count=0, oom_events=0)
            out("train", **kv)
        try:
            time.sleep(args.sleep)
        except RuntimeError as e:
            if mode != "dl_restart" or "DataLoader worker" not in str(e):
                raise
            logging.getLogger("trainer.data").warning("DataLoader worker died (%s); recreating the loader", e)
            loader_it = make_loader()
        if args.ckpt and rank == 0 and (step + 1) % 20 == 0:
            os.makedirs(os.path.dirname(args.ckpt), exist_ok=True)
            torch.save({"model": model.state_dict(), "step": step + 1}, args.ckpt)
            out(f"saved checkpoint {args.ckpt}", step=step + 1)
    if bar:
        bar.close()
    dist.barrier()
    out("training complete", steps=len(it))
    if mode == "teardown":
        class Handle:
            def __del__(self):
                raise RuntimeError("stats handle already closed")
        h = Handle()
        del h  # -> "Exception ignored in: <function Handle.__del__ ...>"
        open(__file__).read()  # leaked file handle -> ResourceWarning at exit (with -X dev)
        f = open(__file__)
        del f
        return  # no destroy_process_group
    dist.destroy_process_group()


if __name__ == "__main__":
    if args.spawn:
        import torch.multiprocessing as mp
        mp.spawn(main, nprocs=args.spawn)
    else:
        main()
