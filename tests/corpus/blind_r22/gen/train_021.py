# 021: srun --label, 3 tasks. Rank 0 downloads the tokenizer vocab from the internal model
# hub (HUB_URL; the service is down: nothing listens there) while the others wait in a barrier.
import os, sys, time, logging, urllib.request, torch, torch.distributed as dist
from datetime import timedelta
logging.basicConfig(level=logging.INFO, format="%(asctime)s [%(process)d] %(levelname)s %(name)s - %(message)s")
log = logging.getLogger("setup")
rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:27210", rank=rank, world_size=world, timeout=timedelta(seconds=40))
HUB = os.environ["HUB_URL"]
if rank == 0:
    url = f"{HUB}/api/models/acme/tiny-lm/resolve/main/vocab.json"
    for attempt in range(1, 4):
        try:
            log.info("downloading %s (attempt %d/3)", url, attempt)
            data = urllib.request.urlopen(url, timeout=10).read(); break
        except OSError as e:
            log.warning("download failed: %s; retrying in %ds", e, 2 * attempt)
            if attempt == 3: raise
            time.sleep(2 * attempt)
log.info("waiting for tokenizer files")
dist.barrier()
log.info("tokenizer ready")
