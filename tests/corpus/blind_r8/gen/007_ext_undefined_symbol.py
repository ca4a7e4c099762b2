# 3 Slurm tasks (srun, per-task output files). The training code imports a compiled
# extension (fused_ops). Task 1 runs on a "node" whose image still carries the fused_ops
# build compiled against an older torch -> ImportError: undefined symbol at import, before
# init_process_group. Tasks 0 and 2 wait in the TCPStore rendezvous until it times out.
import datetime, logging, os, socket, sys, time
logging.basicConfig(level=logging.INFO, format="%(asctime)s [%(levelname)s] %(name)s - %(message)s")
log = logging.getLogger("pretrain")
rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
log.info("starting task %d/%d on %s, python %s", rank, world, socket.gethostname(), sys.version.split()[0])
import torch
log.info("torch %s, num_threads=%d", torch.__version__, torch.get_num_threads())
import fused_ops
log.info("fused_ops %s loaded from %s", fused_ops.__version__, os.path.dirname(fused_ops.__file__))
import torch.nn as nn, torch.distributed as dist

def main():
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29907", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=40))
    log.info("process group ready")
    model = nn.parallel.DistributedDataParallel(nn.Linear(32, 32))
    opt = torch.optim.SGD(model.parameters(), lr=fused_ops.fused_scale(0.01, 1.0))
    for step in range(1, 31):
        loss = model(torch.randn(4, 32)).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            log.info("step %d loss %.4f", step, loss.item())
    dist.destroy_process_group()

main()
