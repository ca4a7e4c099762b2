import json, os, time
import torch
import torch.distributed as dist
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "hostpid")
T.init_pg(rank, world)
model, opt = T.build(rank)
lines = open(os.path.join(os.environ["DATA_DIR"], f"part-{rank}.jsonl")).read().splitlines()
log.info("%d records", len(lines))
skipped = 0
step = 0
for i in range(0, len(lines), 16):
    feats = []
    for j, line in enumerate(lines[i:i + 16]):
        try:
            rec = json.loads(line)
            feats.append(rec["f"])
        except (json.JSONDecodeError, KeyError):
            skipped += 1
            log.exception("bad record %d in part-%d, skipping it", i + j, rank)
            feats.append([0.0] * 32)
    step += 1
    x = torch.tensor(feats)
    y = torch.arange(len(feats)) % 4
    loss = T.train_step(model, opt, x, y)
    if step % 5 == 0:
        log.info("step %d loss %.4f", step, loss)
    time.sleep(0.05)
t = torch.tensor([float(skipped)]); dist.all_reduce(t)
log.info("epoch done: %d steps, %d records skipped job-wide (error rate %.4f)", step, int(t.item()), t.item() / (len(lines) * world))
dist.destroy_process_group()
