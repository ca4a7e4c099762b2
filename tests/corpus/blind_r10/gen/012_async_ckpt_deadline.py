# ViT-ish toy model; rank 0 saves checkpoints asynchronously to the shared checkpoint mount
import os, logging, concurrent.futures as cf, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)-7s [%(process)d] %(message)s")
log = logging.getLogger("trainer")
CKPT_DIR = os.environ.get("CKPT_DIR", "ckpt")
SAVE_EVERY, SAVE_DEADLINE_S = 40, 15

class AsyncSaver:
    def __init__(self):
        self.pool = cf.ThreadPoolExecutor(max_workers=1, thread_name_prefix="ckpt")
        self.pending = None
    def wait(self):
        if self.pending is None:
            return
        step, fut = self.pending
        try:
            fut.result(timeout=SAVE_DEADLINE_S)
        except cf.TimeoutError:
            log.error("async checkpoint save for step %d did not finish within %ds", step, SAVE_DEADLINE_S)
            raise RuntimeError(f"checkpoint save deadline exceeded (step {step}, {SAVE_DEADLINE_S}s)")
        log.info("checkpoint step %d committed", step)
        self.pending = None
    @staticmethod
    def _write(state, path):
        with open(path, "wb") as f:
            torch.save(state, f)
    def save(self, step, state):
        self.wait()
        path = os.path.join(CKPT_DIR, f"step_{step:06d}.pt")
        state = {k: v.clone() for k, v in state.items()}
        self.pending = (step, self.pool.submit(self._write, state, path))
        log.info("checkpoint step %d -> %s (async)", step, path)

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(48, 96), nn.GELU(), nn.Linear(96, 48)))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    saver = AsyncSaver() if rank == 0 else None
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 301):
        x = torch.randn(32, 48, generator=g)
        loss = (model(x) - x.flip(1)).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % 20 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        if rank == 0 and step % SAVE_EVERY == 0:
            saver.save(step, model.module.state_dict())
    if rank == 0:
        saver.wait()
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
