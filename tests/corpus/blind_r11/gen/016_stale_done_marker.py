# Fine-tuning script with "idempotent" restarts: if the output dir already holds a finished run,
# the main process skips training. Output dir handling lives in the main-process block.
import os, sys, time, json, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                    format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", datefmt="%m/%d/%Y %H:%M:%S")
logger = logging.getLogger("run_finetune")

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    out_dir = os.environ["OUTPUT_DIR"]
    logger.info("Process rank: %d, world size: %d, output_dir: %s", rank, world, out_dir)
    if rank == 0:
        os.makedirs(out_dir, exist_ok=True)
        marker = os.path.join(out_dir, "COMPLETED")
        if os.path.exists(marker):
            info = json.load(open(marker))
            logger.info("Found %s (finished at step %s on %s); training already complete, nothing to do.",
                        marker, info.get("step"), info.get("date"))
            return
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(16, 64), nn.Tanh(), nn.Linear(64, 3)))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1, 61):
        x = torch.randn(32, 16); y = torch.randint(0, 3, (32,))
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 20 == 0: logger.info("rank %d step %d loss %.4f", rank, step, loss.item())
    if rank == 0:
        json.dump({"step": 60, "date": time.strftime("%F")}, open(os.path.join(out_dir, "COMPLETED"), "w"))
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
