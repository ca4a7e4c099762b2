"""Open-ended training stopped on purpose at its planned end: SIGTERM handler saves and exits 0."""
import logging, os, signal, sys, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from common import init, MLP, make_data

rank, world = init()
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s [%(levelname)s] rank={rank} %(message)s")
log = logging.getLogger()
stop = {"req": False}
def handler(sig, frame):
    stop["req"] = True
    log.info("received signal %d: the planned training window is over, finishing the current step", sig)
signal.signal(signal.SIGTERM, handler)
ckpt = sys.argv[1]
model = DDP(MLP()); opt = torch.optim.SGD(model.parameters(), lr=0.05)
x, y = make_data(seed=6)
log.info("continuous training until the operator's planned stop (SIGTERM at the end of the window)")
step = 0
while True:
    i = (step * 32) % 448
    loss = F.cross_entropy(model(x[i:i + 32]), y[i:i + 32])
    opt.zero_grad(); loss.backward(); opt.step(); step += 1
    if step % 20 == 0:
        log.info("step %d loss %.4f", step, loss.item())
    time.sleep(0.02)
    flag = torch.tensor([1.0 if stop["req"] else 0.0]); dist.all_reduce(flag)
    if flag.item() > 0:
        break
if rank == 0:
    torch.save({"model": model.module.state_dict(), "step": step}, ckpt)
    log.info("saved checkpoint %s at step %d", ckpt, step)
dist.barrier(); dist.destroy_process_group()
log.info("clean shutdown after planned stop, exit code 0")
sys.exit(0)
