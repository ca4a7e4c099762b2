# torchrun --local-ranks-filter 0 (console shows only local rank 0) --log-dir --tee 3, 3 ranks,
# entry point decorated with @record. The job resumes from step_500 where every rank loads its
# own shard; rank 1's shard was torn (truncated) when the previous job was preempted mid-save.
import os, sys, time, datetime, logging
import torch, torch.nn as nn, torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record

logging.basicConfig(level=logging.INFO, format="%(asctime)s [%(process)d] %(levelname)s %(message)s")
log = logging.getLogger("resume")

def build():
    return nn.Sequential(nn.Linear(128, 512), nn.ReLU(), nn.Linear(512, 128))

@record
def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank, world = dist.get_rank(), dist.get_world_size()
    ck = os.environ["RESUME_FROM"]
    log.info("resuming from %s (world_size=%d)", ck, world)
    model = build()
    path = os.path.join(ck, f"model_rank{rank}.pt")
    log.info("loading %s", path)
    sd = torch.load(path, map_location="cpu", weights_only=True)
    model.load_state_dict(sd["model"])
    start = sd["step"]
    dist.barrier()
    log.info("all ranks restored, continuing at step %d", start)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(start, start + 50):
        x = torch.randn(32, 128)
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad(); loss.backward()
        for p in model.parameters(): dist.all_reduce(p.grad, op=dist.ReduceOp.AVG)
        opt.step()
        if step % 10 == 0: log.info("step %d loss %.4f", step, loss.item())
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
