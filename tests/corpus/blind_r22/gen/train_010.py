# 010: sbatch + srun, one output file per task (-o %x-%j-%t.out). 4 ranks resume from
# per-rank checkpoint files; rank 3's file was left over from an older run with hidden=24,
# so load_state_dict fails with size mismatch on rank 3 only.
import os, sys, time, logging, torch, torch.distributed as dist
import torch.nn.functional as F
from datetime import timedelta
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model, batch
logging.basicConfig(level=logging.INFO)
log = logging.getLogger("resume")
rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:27100", rank=rank, world_size=world,
                        timeout=timedelta(seconds=30))
model = tiny_model(hidden=32)
path = os.path.join(os.environ["CKPT"], f"model_rank{rank}.pt")
log.info("rank %d resuming from %s", rank, path)
sd = torch.load(path, map_location="cpu", weights_only=True)
model.load_state_dict(sd["model"])
log.info("rank %d restored step %d", rank, sd["step"])
model = DDP(model); opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(sd["step"], sd["step"] + 20):
    x, y = batch(step, rank); loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    log.info("step %d loss %.4f", step, loss.item()); time.sleep(0.2)
dist.destroy_process_group()
