# Resume after a preempted run: the previous job was killed while writing step_3000.pt
# (torn write: file truncated), but had already updated the `latest` pointer. 3 ranks,
# `python -m torch.distributed.run --redirects 1 --log-dir` (stdout to per-rank files, stderr
# on the console). Rank 0 loads the checkpoint and broadcasts it; its torch.load fails.
import datetime, logging, os, sys, time
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"])
out = logging.StreamHandler(sys.stdout); err = logging.StreamHandler(sys.stderr); err.setLevel(logging.WARNING)
logging.basicConfig(level=logging.INFO, handlers=[out, err], format="%(asctime)s rank%(rank)s %(levelname)s %(message)s")
_f = logging.getLogRecordFactory()
def _fac(*a, **k):
    r = _f(*a, **k); r.rank = rank; return r
logging.setLogRecordFactory(_fac)
log = logging.getLogger("resume")
CK = os.environ["CKPT_DIR"]

def model_fn():
    return nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
    model = model_fn()
    tag = open(os.path.join(CK, "latest")).read().strip()
    log.info("found checkpoint pointer latest -> %s", tag)
    obj = [None]
    if rank == 0:
        path = os.path.join(CK, tag)
        log.info("loading %s (%.1f MB)", path, os.path.getsize(path) / 1e6)
        sd = torch.load(path, map_location="cpu")
        obj = [sd]
    dist.broadcast_object_list(obj, src=0)
    model.load_state_dict(obj[0]["model"]); step0 = obj[0]["step"]
    log.info("resumed at step %d", step0)
    model = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(step0 + 1, step0 + 50):
        x = torch.randn(16, 256); loss = nn.functional.cross_entropy(model(x), torch.randint(0, 10, (16,)))
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0: log.info("step %d loss %.4f", step, loss.item())
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
