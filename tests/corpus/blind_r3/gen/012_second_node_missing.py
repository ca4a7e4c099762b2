# Trainer for a 2-node job. The second node's agent is never started (its
# allocation did not come up), so the c10d rendezvous on node 0 times out
# (join_timeout=30s) before any worker starts. The script itself never runs.
import os, datetime, torch, torch.distributed as dist
def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    print(f"rank {dist.get_rank()} of {dist.get_world_size()} ready", flush=True)
    dist.destroy_process_group()
if __name__ == "__main__":
    main()
