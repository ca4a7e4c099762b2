# pretraining entrypoint; reads cluster-specific paths from the environment set by the node profile
import os, sys, time, datetime, logging
import torch, torch.distributed as dist

rank = int(os.environ["SLURM_PROCID"]); ws = int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s: %(message)s")
log = logging.getLogger(f"pretrain.r{rank}")

def build_data():
    root = os.environ["DATASET_ROOT"]
    cache = os.environ.get("HF_HOME", "/tmp/hf")
    log.info("data root %s, cache %s", root, cache)
    return root

def main():
    log.info("host %s task %d/%d starting, torch %s", os.environ.get("SLURMD_NODENAME"), rank, ws, torch.__version__)
    root = build_data()
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{os.environ['MASTER_PORT']}", rank=rank, world_size=ws,
                            timeout=datetime.timedelta(seconds=30))
    log.info("process group ready")
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(64, 64))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(100):
        loss = model(torch.randn(8, 64)).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 25 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
