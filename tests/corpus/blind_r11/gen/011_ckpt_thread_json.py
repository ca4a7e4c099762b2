# Training with an asynchronous checkpoint writer thread on rank 0 (saves overlap with training).
import os, sys, json, time, queue, threading, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
log = logging.getLogger("train")
CKPT = os.environ["CKPT_DIR"]

class AsyncCheckpointer:
    def __init__(self):
        self.q = queue.Queue()
        self.t = threading.Thread(target=self._run, name="ckpt-writer", daemon=True); self.t.start()
    def _run(self):
        while True:
            step, state, meta = self.q.get()
            path = os.path.join(CKPT, f"step_{step:06d}")
            os.makedirs(path, exist_ok=True)
            torch.save(state, os.path.join(path, "model.pt"))
            with open(os.path.join(path, "meta.json"), "w") as f:
                json.dump(meta, f)
            log.info("checkpoint step %d written to %s", step, path)
            self.q.task_done()
    def save(self, step, model, meta):
        self.wait()                  # one save in flight at a time
        state = {k: v.detach().clone() for k, v in model.state_dict().items()}
        self.q.put((step, state, meta))
    def wait(self):
        self.q.join()

def main():
    dist.init_process_group("gloo", init_method="env://", rank=rank, world_size=world, timeout=timedelta(seconds=20))
    log.info("rank %d of %d ready", rank, world)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 32)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    ck = AsyncCheckpointer() if rank == 0 else None
    for step in range(1, 81):
        x = torch.randn(64, 32)
        loss = nn.functional.mse_loss(model(x), x)
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % 10 == 0:
            log.info("step %d loss %.5f", step, loss.item())
        if rank == 0 and step % 20 == 0:
            ck.save(step, model.module, {"step": step, "loss": loss.detach(), "lr": 1e-3, "world_size": world})
        time.sleep(0.1)
    if ck: ck.wait()
    log.info("done")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
