"""Small classifier trained with Lightning Fabric (CPU, gloo). Scenario from env SCN. Logs JSON lines or logging."""
import os, sys, time, json, logging
from datetime import timedelta
import torch
from torch import nn
import torch.distributed as dist
import lightning as L
from lightning.fabric.strategies import DDPStrategy

SCN = os.environ.get("SCN", "ok")
STYLE = os.environ.get("LOGSTYLE", "json")


def emit(fabric, **kv):
    if STYLE == "json":
        kv = {"ts": time.strftime("%Y-%m-%dT%H:%M:%S"), "rank": fabric.global_rank, **kv}
        print(json.dumps(kv), flush=True)
    else:
        logging.getLogger("fabric_train").info(" ".join(f"{k}={v}" for k, v in kv.items()))


def run(fabric):
    logging.basicConfig(level=logging.INFO,
                        format=f"%(asctime)s [rank{fabric.global_rank}] %(levelname)s %(name)s: %(message)s")
    fabric.seed_everything(11 + fabric.global_rank)
    r, world = fabric.global_rank, fabric.world_size
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    model, opt = fabric.setup(model, opt)
    n_batches = int(os.environ.get("NB", "60"))
    if SCN == "short_shard" and r == 2:
        n_batches = 23  # this rank's shard holds fewer samples
    steps = int(os.environ.get("STEPS", "60"))
    it = iter(range(n_batches))
    use_tqdm = os.environ.get("TQDM") == "1" and r == 0
    bar = None
    if use_tqdm:
        from tqdm import tqdm
        bar = tqdm(total=steps, desc="train")
    q = None
    if SCN == "prefetch":
        import queue, threading
        q = queue.Queue(maxsize=4)
        shard_dir = os.environ.get("DATA_DIR", "/tmp/b44_fab_data")
        def fill():
            for b in range(n_batches):
                if r == 0 and b == 30:
                    with open(os.path.join(shard_dir, f"rank{r}", f"batch_{b:05d}.bin"), "rb") as f:
                        f.read()
                g = torch.Generator().manual_seed(1000 * r + b)
                x = torch.randn(32, 20, generator=g)
                q.put((x, x[:, :4].argmax(1)))
        threading.Thread(target=fill, name="prefetch", daemon=True).start()
    for step in range(steps):
        try:
            next(it)
        except StopIteration:
            emit(fabric, event="data_exhausted", step=step)
            return
        if q is not None:
            x, y = q.get(timeout=20)
        else:
            x = torch.randn(32, 20)
            y = (x[:, :4].argmax(1))
        loss = nn.functional.cross_entropy(model(x), y)
        fabric.backward(loss)
        opt.step(); opt.zero_grad()
        if SCN == "mismatch" and step == 17:
            stat = torch.tensor([float(loss), 32.0]) if r != 1 else torch.tensor([float(loss), 32.0, 0.0])
            fabric.all_reduce(stat, reduce_op="sum")
        if SCN == "deadlock" and r == 1 and step == 15:
            import threading
            a, b = threading.Lock(), threading.Lock()
            def worker():
                with b:
                    time.sleep(0.2)
                    with a:
                        pass
            t = threading.Thread(target=worker, daemon=True); t.start()
            with a:
                time.sleep(0.2)
                with b:
                    pass
        if SCN == "spawn_exc" and r == 1 and step == 21:
            cfg = {"warmup": 10, "schedule": "cosine"}
            factor = cfg["decay_steps"] - step
        if SCN == "rss_grow" and r == 1 and step >= 12:
            globals().setdefault("_hist", []).append(torch.ones(16 * 1024 * 1024))  # 64 MiB per step
        if step % 5 == 0:
            avg = fabric.all_reduce(loss.detach(), reduce_op="mean")
            if r == 0:
                emit(fabric, step=step, loss=round(float(avg), 4), lr=3e-3)
        if SCN == "ckpt_every" and step > 0 and step % 20 == 0:
            fabric.save(os.path.join(os.environ["CKPT_DIR"], f"step-{step:06d}.ckpt"), {"model": model, "opt": opt, "step": step})
            emit(fabric, event="checkpoint", step=step)
        if bar is not None:
            bar.update(1)
        if SCN in ("slow",):
            time.sleep(0.3)
    if bar is not None:
        bar.close()
    if SCN == "ok_ckpt":
        fabric.save(os.environ.get("CKPT", "/tmp/b44_fab.ckpt"), {"model": model, "opt": opt, "step": steps})
    fabric.barrier()
    emit(fabric, event="done", steps=steps)


def main():
    strategy = os.environ.get("STRATEGY", "ddp")
    devices = int(os.environ.get("DEVICES", "2"))
    kw = dict(process_group_backend="gloo", timeout=timedelta(seconds=int(os.environ.get("PG_TIMEOUT", "30"))))
    if strategy == "ddp_spawn":
        from lightning.fabric.strategies import DDPStrategy as S
        strat = S(start_method="spawn", **kw)
    else:
        strat = DDPStrategy(**kw)
    fabric = L.Fabric(accelerator="cpu", devices=devices, strategy=strat,
                      num_nodes=int(os.environ.get("NUM_NODES", "1")))
    fabric.launch(run)


if __name__ == "__main__":
    main()
