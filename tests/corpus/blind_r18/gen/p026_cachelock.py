import fcntl, json, os, time
import torch.distributed as dist
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "py")
T.init_pg(rank, world, timeout_s=int(os.environ.get("PG_TIMEOUT", "1800")))
model, opt = T.build(rank)
CACHE = os.environ["SHARED_CACHE"]


def refresh_index(epoch):
    """rank 0 rebuilds the shared shard index once per epoch under an exclusive lock"""
    lock_path = os.path.join(CACHE, "index.lock")
    log.info("epoch %d: acquiring shared cache lock %s", epoch, lock_path)
    with open(lock_path, "a+") as lf:
        fcntl.flock(lf, fcntl.LOCK_EX)
        log.info("epoch %d: lock acquired, rebuilding index", epoch)
        idx = sorted(os.listdir(os.path.join(CACHE, "shards")))
        json.dump(idx, open(os.path.join(CACHE, "index.json"), "w"))
        fcntl.flock(lf, fcntl.LOCK_UN)


step = 0
for epoch in range(100):
    if rank == 0:
        refresh_index(epoch)
    dist.barrier()
    for _ in range(20):
        step += 1
        x, y = T.batch(rank, step)
        loss = T.train_step(model, opt, x, y)
        if step % 10 == 0:
            log.info("epoch %d step %d loss %.4f", epoch, step, loss)
        time.sleep(0.05)
