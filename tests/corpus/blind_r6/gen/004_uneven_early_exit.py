# 2 "nodes" x 2 ranks. Each rank iterates its own pre-sharded file list; shards are uneven
# (rank 3 got fewer files), no DistributedSampler / join(). Rank 3 runs out of data, logs
# "epoch finished" and exits 0; the other ranks wait for it in the next all_reduce.
import os, sys, time, socket, datetime
import torch, torch.nn as nn, torch.distributed as dist

def p(msg):
    print(f"[{socket.gethostname()}:{os.environ['RANK']}] {datetime.datetime.now():%H:%M:%S} {msg}", flush=True)

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank, world = dist.get_rank(), dist.get_world_size()
    files = [f"s3://corpus/train-{i:05d}.tar" for i in range(rank, 62 if rank != 3 else 44, world)]
    p(f"rank {rank}/{world} assigned {len(files)} shards, local_rank={os.environ['LOCAL_RANK']} group_rank={os.environ['GROUP_RANK']}")
    model = nn.Linear(256, 256)
    for q in model.parameters(): dist.broadcast(q.data, 0)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    step = 0
    for f in files:
        for _ in range(4):   # 4 batches per shard
            x = torch.randn(32, 256)
            loss = (model(x) - x).pow(2).mean()
            opt.zero_grad(); loss.backward()
            for q in model.parameters():
                dist.all_reduce(q.grad, op=dist.ReduceOp.AVG)
            opt.step(); step += 1
            time.sleep(0.05)
        if step % 8 == 0:
            p(f"step {step} shard {f} loss {loss.item():.4f}")
    p(f"epoch finished after {step} steps, saving nothing (eval disabled)")
    # no barrier, no destroy: process just exits

if __name__ == "__main__":
    main()
