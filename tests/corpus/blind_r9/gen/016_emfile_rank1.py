# jsonl corpus reader that keeps every shard file open for random access (handle cache never evicts);
# rank 1 was assigned the directory of many small shards
import os, sys, json, time, datetime, logging
import torch, torch.distributed as dist, torch.multiprocessing as mp

def get_logger(rank, logdir):
    log = logging.getLogger(f"r{rank}"); log.setLevel(logging.INFO)
    fh = logging.FileHandler(os.path.join(logdir, f"rank{rank}.log"))
    fh.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s")); log.addHandler(fh)
    return log

class ShardReader:
    def __init__(self, files): self.files, self.handles = files, {}
    def sample(self, i):
        path = self.files[i % len(self.files)]
        if path not in self.handles:
            self.handles[path] = open(path, "r")
        f = self.handles[path]; f.seek(0)
        return json.loads(f.readline())["x"]

def worker(rank, ws, port, data_root, logdir):
    log = get_logger(rank, logdir)
    try:
        dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=ws, timeout=datetime.timedelta(seconds=30))
        d = os.path.join(data_root, f"split{rank}")
        files = sorted(os.path.join(d, f) for f in os.listdir(d))
        log.info("rank %d: %d shard files under %s", rank, len(files), d)
        reader = ShardReader(files)
        torch.manual_seed(0)
        model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(16, 1))
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
        for step in range(60):
            x = torch.tensor([reader.sample(step * 8 + j) for j in range(8)], dtype=torch.float32)
            loss = model(x).pow(2).mean()
            opt.zero_grad(); loss.backward(); opt.step()
            if step % 5 == 0:
                log.info("step %d loss %.4f open_handles %d", step, loss.item(), len(reader.handles))
            time.sleep(0.05)
        dist.destroy_process_group()
    except Exception:
        log.exception("rank %d failed", rank)
        raise

if __name__ == "__main__":
    data_root, logdir = sys.argv[1], sys.argv[2]
    mp.spawn(worker, args=(3, 30017, data_root, logdir), nprocs=3)
