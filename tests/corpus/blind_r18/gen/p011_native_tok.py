import faulthandler, json, os, time
import torch
import trainlib as T
import fasttok

faulthandler.enable()
rank, world, local = T.env_rank()
log = T.make_logger(rank, "hostpid")
T.init_pg(rank, world)
model, opt = T.build(rank)
records = [json.loads(l) for l in open(os.path.join(os.environ["DATA_DIR"], f"part-{rank:03d}.jsonl"))]
offsets = {b: 0x1000 + b for b in range(0x80)}
log.info("tokenizing %d records with native tokenizer", len(records))
for step, rec in enumerate(records, 1):
    ids = fasttok.encode(rec["text"], offsets)[:32]
    x = torch.tensor(ids + [0] * (32 - len(ids)), dtype=torch.float32).repeat(16, 1) / 255.0
    y = torch.arange(16) % 4
    loss = T.train_step(model, opt, x, y)
    if step % 5 == 0:
        log.info("step %d loss %.4f tokens %d", step, loss, len(ids))
    time.sleep(0.1)
log.info("done")
T.dist.destroy_process_group()
