# 2 nodes (two torchrun agents) x 2 procs. On node B the job runs inside a memory cgroup
# (1.3 GB, like a Slurm/k8s memory limit). The first process of node B also computes
# retrieval features for the validation set and keeps them in an in-RAM cache that is never
# trimmed -> RSS grows each step until the kernel OOM killer SIGKILLs it. No Python traceback.
import datetime, os, sys, time
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"]); lrank = int(os.environ["LOCAL_RANK"])
node = os.environ.get("NODE_TAG", "?")

def say(msg):
    print(f"[{datetime.datetime.now().isoformat(timespec='milliseconds')}] rank={rank} node={node} {msg}", flush=True)

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
    say(f"init done world={dist.get_world_size()} local_rank={lrank}")
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 256)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    cache = []
    keeper = node == "B" and lrank == 0
    if keeper:
        say("retrieval eval enabled on this process: caching validation features")
    for step in range(1, 200):
        x = torch.randn(64, 256)
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if keeper:
            feats = torch.randn(4096, 4096)  # 64 MiB of "features" per step
            feats.add_(1.0)
            cache.append(feats)
        if step % 5 == 0:
            say(f"step={step} loss={loss.item():.4f}" + (f" val_cache_items={len(cache)}" if keeper else ""))
        time.sleep(0.2)
    say("finished")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
