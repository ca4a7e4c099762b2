import datetime, os, time, socket
import torch, torch.distributed as dist, torch.multiprocessing as mp

def worker(rank, world):
    print(f"{time.strftime('%H:%M:%S')} [worker {rank}] init on {os.environ['MASTER_ADDR']}:{os.environ['MASTER_PORT']}", flush=True)
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=15))
    for step in range(3):
        t = torch.ones(1); dist.all_reduce(t)
        print(f"[worker {rank}] step {step} loss 0.5", flush=True)

if __name__ == "__main__":
    # a previous run's TensorBoard-like server still holds the port
    hold = socket.socket(); hold.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); hold.bind(("0.0.0.0", 23104)); hold.listen()
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="23104")
    mp.spawn(worker, args=(4,), nprocs=4)
