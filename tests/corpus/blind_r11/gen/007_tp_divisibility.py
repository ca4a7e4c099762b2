# Megatron-style 2D parallel toy: mesh = (data_parallel, tensor_parallel), launched with mp.spawn.
import os, sys, json, logging, time, argparse
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
import torch.multiprocessing as mp

def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--nprocs", type=int, default=3)
    p.add_argument("--tensor-parallel-size", type=int, default=2)
    p.add_argument("--hidden", type=int, default=96)
    p.add_argument("--port", type=int, default=31107)
    return p.parse_args()

def build_mesh(world, tp):
    if world % tp != 0:
        raise ValueError(f"world_size ({world}) is not divisible by tensor_model_parallel_size ({tp})")
    dp = world // tp
    return [[d * tp + t for t in range(tp)] for d in range(dp)]

class ColumnParallelLinear(nn.Module):
    def __init__(self, din, dout, tp):
        super().__init__()
        if dout % tp: raise ValueError(f"output features {dout} not divisible by tp={tp}")
        self.w = nn.Parameter(torch.randn(dout // tp, din) * 0.02)

def worker(local_rank, args):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(args.port))
    logging.basicConfig(level=logging.INFO, format=f"[%(asctime)s][rank {local_rank}][%(levelname)s] %(message)s")
    log = logging.getLogger()
    dist.init_process_group("gloo", rank=local_rank, world_size=args.nprocs, timeout=timedelta(seconds=20))
    world = dist.get_world_size()
    log.info("process group initialized: world_size=%d tp=%d hidden=%d", world, args.tensor_parallel_size, args.hidden)
    mesh = build_mesh(world, args.tensor_parallel_size)
    log.info("mesh %s", mesh)
    layer = ColumnParallelLinear(args.hidden, 4 * args.hidden, args.tensor_parallel_size)
    for step in range(20):
        time.sleep(0.1)
    dist.destroy_process_group()

if __name__ == "__main__":
    args = parse()
    print(f"spawning {args.nprocs} processes: {json.dumps(vars(args))}", flush=True)
    mp.spawn(worker, args=(args,), nprocs=args.nprocs, join=True)
