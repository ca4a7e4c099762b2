# HEALTHY. sbatch -> srun --label -n3. Noisy but fine: deprecation/user warnings, a streaming
# data reader on rank 2 whose connection drops once (traceback logged, stream reopened at the
# same offset), a checkpoint upload on rank 0 that fails twice with a traceback and then
# succeeds on the 3rd attempt, a slow-step warning. Training completes; exit 0.
import datetime, logging, os, random, sys, time, warnings
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s | %(message)s")
log = logging.getLogger("train"); dlog = logging.getLogger("data.stream"); ulog = logging.getLogger("ckpt.upload")
logging.captureWarnings(True)

class Stream:
    def __init__(self, shard): self.shard, self.off, self.conn, self.fail_at = shard, 0, 1, (137 if rank == 2 else -1)
    def read(self, n):
        if self.off == self.fail_at and self.conn == 1:
            raise ConnectionResetError(104, "Connection reset by peer")
        self.off += 1
        return torch.randn(n, 48)
    def reopen(self): self.conn += 1

def upload(path, attempt):
    if rank == 0 and attempt < 3:
        raise TimeoutError(f"PUT s3://ml-ckpts/exp17/{os.path.basename(path)}: read timed out (attempt {attempt})")

def main():
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29918", rank=rank, world_size=world)
    warnings.warn("torch.cuda.amp.GradScaler(args...) is deprecated. Please use torch.amp.GradScaler('cuda', args...) instead.", FutureWarning)
    if rank == 0:
        warnings.warn("The given NumPy array is not writable, and PyTorch does not support non-writable tensors.", UserWarning)
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(48, 96), nn.GELU(), nn.Linear(96, 48)))
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
    st = Stream(f"s3://datasets/web/shard-{rank:04d}.jsonl.zst")
    for step in range(1, 181):
        while True:
            try:
                x = st.read(16); break
            except ConnectionResetError:
                dlog.exception("error reading %s at offset %d; reopening stream", st.shard, st.off)
                time.sleep(0.5); st.reopen(); dlog.warning("stream %s reopened, resuming at offset %d", st.shard, st.off)
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 20 == 0:
            log.info("step %d/180 loss %.4f", step, loss.item())
        if step == 90:
            if rank == 0:
                path = "/scratch/exp17/ckpt_step90.pt"
                for attempt in range(1, 4):
                    try:
                        upload(path, attempt); ulog.info("uploaded %s (attempt %d)", path, attempt); break
                    except TimeoutError:
                        ulog.warning("upload failed, retrying in %ds", attempt, exc_info=True)
                        time.sleep(attempt * 0.5)
            dist.barrier()
        if step == 120 and rank == 1:
            log.warning("step 120 took 2.41s (median 0.06s): possible straggler")
        time.sleep(0.04)
    log.info("training finished: 180 steps, final loss %.4f", loss.item())
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
