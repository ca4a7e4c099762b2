# train_lm.py -- reads token shards from a shared filesystem; logs data/step time
import os, time, socket, logging, datetime, torch, torch.nn as nn, torch.distributed as dist

node = os.environ.get("NODE_NAME", socket.gethostname())
rank = int(os.environ["RANK"]); local_rank = int(os.environ["LOCAL_RANK"])
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s {node}:%(process)d %(levelname)s | %(message)s")
log = logging.getLogger(__name__)

def read_shard_block(step):
    # shared-FS read; this node's mount (node1, second GPU slot) degrades over time
    t = 0.05
    if rank == 3 and step >= 6:
        t = min(0.3 * 2 ** (step - 6), 60.0)
    time.sleep(t)
    return torch.randint(0, 500, (16, 33))

dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
log.info("rank %d (local %d) of %d joined", rank, local_rank, dist.get_world_size())
model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Embedding(500, 64), nn.Linear(64, 500)))
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
for step in range(40):
    t0 = time.time(); batch = read_shard_block(step); t1 = time.time()
    logits = model(batch[:, :-1])
    loss = nn.functional.cross_entropy(logits.reshape(-1, 500), batch[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step(); t2 = time.time()
    log.info("step %d loss %.3f data_time %.2fs step_time %.2fs", step, loss.item(), t1 - t0, t2 - t0)
log.info("done")
