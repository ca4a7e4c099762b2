import os, sys, time
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import trainlib as T


def pick_device(local_rank):
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "")
    devs = [d.strip() for d in visible.split(",")]
    dev = devs[local_rank] if local_rank < len(devs) else ""
    return None if dev in ("", "-1", "NoDevFiles") else dev


def worker(rank, world):
    log = T.make_logger(rank, "py")
    T.init_pg(rank, world)
    model, opt = T.build(rank)
    dev = pick_device(rank)
    offload = dev is None
    if offload:
        log.warning("no accelerator visible for local rank %d (CUDA_VISIBLE_DEVICES=%r); enabling CPU optimizer offload",
                    rank, os.environ.get("CUDA_VISIBLE_DEVICES"))
    else:
        log.info("using device %s", dev)
    for step in range(1, 31):
        x, y = T.batch(rank, step)
        loss = T.train_step(model, opt, x, y)
        if offload and step % 10 == 0:
            # offloaded optimizer state: collect per-rank shard norms for the offload manager
            norms = [torch.zeros(1) for _ in range(world)]
            dist.all_gather(norms, torch.tensor([sum(p.norm() for p in model.parameters())]))
        if step % 5 == 0:
            log.info("step %d loss %.4f", step, loss)
        time.sleep(0.1)
    log.info("finished")
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    mp.spawn(worker, args=(4,), nprocs=4)
