# healthy run (torch.multiprocessing.spawn, 2 ranks). Each rank tokenizes its shards in a process pool;
# a pool task that exceeds 5 s is considered stuck: its worker is SIGKILLed, the pool rebuilt and the shard retried.
import os, sys, time, signal, logging, warnings
import concurrent.futures as cf
from concurrent.futures.process import BrokenProcessPool
from datetime import timedelta
import numpy as np
import torch, torch.nn as nn, torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

R = "/work/blind/r13/runs/020_healthy_pool_worker_killed/run"

def tokenize(args):
    shard, attempt = args
    if shard == 5 and attempt == 0:
        time.sleep(60)                      # NFS stall on the first read of shard 5
    rng = np.random.default_rng(shard)
    return shard, rng.integers(0, 500, size=(64, 17))

def tokenize_all(rank, shards, log):
    out = {}
    attempt = {s: 0 for s in shards}
    todo = list(shards)
    while todo:
        with cf.ProcessPoolExecutor(2, mp_context=mp.get_context("fork")) as ex:
            futs = {ex.submit(tokenize, (s, attempt[s])): s for s in todo}
            try:
                for f in cf.as_completed(futs, timeout=5):
                    s, toks = f.result(); out[s] = toks; todo.remove(s)
            except cf.TimeoutError:
                stuck = [futs[f] for f in futs if not f.done()]
                log.warning("tokenizer pool: shards %s exceeded 5 s, killing pool workers", stuck)
                for p in ex._processes.values():
                    os.kill(p.pid, signal.SIGKILL)
                try:
                    for f in futs: f.result()
                except BrokenProcessPool:
                    log.warning("tokenizer pool broken, rebuilding and retrying shards %s", stuck, exc_info=True)
                for s in stuck: attempt[s] += 1
    return out

def worker(rank, world):
    logging.basicConfig(filename=f"{R}/rank{rank}.log", level=logging.INFO,
                        format=f"%(asctime)s rank{rank} %(levelname)s %(message)s")
    logging.captureWarnings(True)
    log = logging.getLogger("train")
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="33020")
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=60))
    shards = [s for s in range(8) if s % world == rank]
    data = tokenize_all(rank, shards, log)
    log.info("tokenized %d shards: %s", len(data), sorted(data))
    toks = torch.from_numpy(np.concatenate([data[s] for s in sorted(data)])).long()
    model = DDP(nn.Sequential(nn.Embedding(500, 32), nn.Linear(32, 500)))
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    for step in range(1, 121):
        x = toks[(step * 8) % len(toks):][:8]
        if len(x) < 8: x = toks[:8]
        logits = model(x[:, :-1])
        loss = nn.functional.cross_entropy(logits.flatten(0, 1), x[:, 1:].flatten())
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 30 == 0:
            ppl = np.exp(np.float32(loss.item()) * np.float32(20))   # 'ppl@20' metric, overflows in float32
            log.info("step %d loss %.4f ppl@20 %s", step, loss.item(), ppl)
    log.info("done")
    dist.destroy_process_group()

if __name__ == "__main__":
    os.makedirs(R, exist_ok=True)
    print(f"{time.strftime('%F %T')} spawning 2 workers", flush=True)
    mp.spawn(worker, args=(2,), nprocs=2)
    print(f"{time.strftime('%F %T')} all workers exited cleanly", flush=True)
