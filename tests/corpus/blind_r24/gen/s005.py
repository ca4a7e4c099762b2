# 005: DataLoader workers + replay buffer holding worker-shared tensors; fine under a normal fd limit,
# EMFILE on the node launched with a low `ulimit -n`.
import collections, os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from tqdm import tqdm
from torch.utils.data import Dataset, DataLoader
from torch.distributed.elastic.multiprocessing.errors import record

class Tokens(Dataset):
    def __len__(self): return 4000
    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        ids = torch.randint(0, 1000, (8,), generator=g)
        return {"ids": ids, "mask": torch.ones(8), "y": ids.float().mean().unsqueeze(0) / 1000}

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("prefix")
    log.info(f"world={world} local_rank={lib.LOCAL_RANK} nofile={os.popen('ulimit -n').read().strip()}")
    m = torch.nn.Sequential(torch.nn.Embedding(1000, 16), torch.nn.Flatten(), torch.nn.Linear(128, 1))
    opt = torch.optim.SGD(m.parameters(), lr=0.01)
    sampler = torch.utils.data.DistributedSampler(Tokens(), num_replicas=world, rank=rank)
    dl = DataLoader(Tokens(), batch_size=4, sampler=sampler, num_workers=2)
    replay = collections.deque(maxlen=120)   # hard-example replay buffer
    bar = tqdm(total=len(dl), desc=f"epoch 0", disable=lib.LOCAL_RANK != 0, mininterval=0.5)
    for step, b in enumerate(dl, 1):
        loss = torch.nn.functional.mse_loss(m(b["ids"]), b["y"])
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        replay.append(b)
        bar.update(1); bar.set_postfix(loss=f"{loss.item():.4f}")
        if step % 50 == 0:
            log.info(f"step {step} loss {loss.item():.4f} replay={len(replay)}")
        time.sleep(0.02)
        if step == 400:
            break
    bar.close()
    log.info("epoch done")

if __name__ == "__main__":
    main()
