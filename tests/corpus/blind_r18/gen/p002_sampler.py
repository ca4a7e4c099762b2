import json, os, threading, time
import torch
from torch.utils.data import DataLoader, Dataset, Sampler
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "bare")
T.init_pg(rank, world)
model, opt = T.build(rank)


class ShardSet(Dataset):
    def __len__(self):
        return 10_000
    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i * 7 + rank)
        return torch.randn(32, generator=g), int(i % 4)


class BucketSampler(Sampler):
    """Length-bucketed sampler over a precomputed bucket plan (one list of buckets per epoch)."""
    def __init__(self, plan, max_bucket=16):
        self.plan = plan
        self.max_bucket = max_bucket
        self.epoch = 0
        self._lock = threading.Lock()
        self._pending = []

    def set_epoch(self, epoch):
        self.epoch = epoch

    def _split_oversized(self, bucket):
        # keep the bucket plan consistent for the prefetch thread
        with self._lock:
            head, tail = bucket[:self.max_bucket], bucket[self.max_bucket:]
            self._pending.extend(head)
            self._pending.extend(tail)

    def __iter__(self):
        with self._lock:
            for bucket in self.plan[self.epoch % len(self.plan)]:
                if len(bucket) > self.max_bucket:
                    self._split_oversized(bucket)
                else:
                    self._pending.extend(bucket)
                while self._pending:
                    yield self._pending.pop(0)

    def __len__(self):
        return sum(len(b) for b in self.plan[self.epoch % len(self.plan)])


plan = json.load(open(os.path.join(os.environ["SHARD_DIR"], f"buckets_{rank:02d}.json")))
sampler = BucketSampler(plan)
loader = DataLoader(ShardSet(), batch_size=16, sampler=sampler, num_workers=0)
log.info("bucket plan: %d epochs, %d buckets in epoch 0", len(plan), len(plan[0]))
step = 0
for epoch in range(3):
    sampler.set_epoch(epoch)
    log.info("epoch %d start (%d samples)", epoch, len(sampler))
    for x, y in loader:
        step += 1
        loss = T.train_step(model, opt, x, y)
        if step % 4 == 0:
            log.info("epoch %d step %d loss %.4f", epoch, step, loss)
        time.sleep(0.1)
log.info("done")
T.dist.destroy_process_group()
