import os, warnings, logging, torch, torch.distributed as dist
from datetime import timedelta
logging.basicConfig(level=logging.INFO, format="%(asctime)s [%(levelname)s] rank%(rank)s %(message)s")
dist.init_process_group("gloo", timeout=timedelta(seconds=12))
rank = dist.get_rank()
log = logging.LoggerAdapter(logging.getLogger("train"), {"rank": rank})
model = torch.nn.Linear(16, 4)
ddp = torch.nn.parallel.DistributedDataParallel(model, find_unused_parameters=True)  # triggers a warning
opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
t = torch.tensor(torch.ones(3))  # UserWarning: copy construct
warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available. Disabling.", UserWarning)
log.warning("NCCL_ASYNC_ERROR_HANDLING is deprecated, use TORCH_NCCL_ASYNC_ERROR_HANDLING instead")
if rank == 1:
    log.warning("failed to fetch tokenizer_config.json from hub (ConnectionError: timed out); retrying 1/3")
    log.info("fetched tokenizer_config.json from local cache")
for step in range(25):
    x = torch.randn(8, 16); y = torch.randint(0, 4, (8,))
    loss = torch.nn.functional.cross_entropy(ddp(x), y)
    opt.zero_grad(); loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(ddp.parameters(), 1.0)
    if step == 3 and rank == 0:
        log.warning("grad norm %.2f exceeds clip threshold; gradient overflow check: found inf=0, skipping nothing", gn.item() * 40)
    opt.step()
    if step % 5 == 0: log.info("step %d loss %.4f", step, loss.item())
if rank == 0: log.info("training finished, saved final checkpoint")
dist.destroy_process_group()
