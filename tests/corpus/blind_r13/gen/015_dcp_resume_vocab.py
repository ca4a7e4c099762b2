# resume a DCP (torch.distributed.checkpoint) checkpoint; vocab size comes from the tokenizer, which
# each local rank reads from its own cache dir (per-rank HF_HOME to avoid cache-lock contention)
import os, json, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo", timeout=timedelta(seconds=30))
rank, world, lr_ = dist.get_rank(), dist.get_world_size(), int(os.environ["LOCAL_RANK"])
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s rank{rank} %(levelname)s %(name)s - %(message)s")
log = logging.getLogger("resume")
BASE = os.environ["JOB_BASE"]
tok = json.load(open(f"{BASE}/hf_home_{lr_}/tokenizer/tokenizer_config.json"))
V = tok["base_vocab"] + len(tok.get("added_tokens", []))
log.info("tokenizer %s: vocab %d (%d added tokens)", tok["name"], V, len(tok.get("added_tokens", [])))
model = nn.Sequential(nn.Embedding(V, 32), nn.Linear(32, V))
ckpt = f"{BASE}/checkpoints/step_2000"
if os.environ.get("SAVE_INITIAL"):
    dcp.save({"model": model.state_dict()}, checkpoint_id=ckpt)
    log.info("saved %s", ckpt); dist.destroy_process_group(); raise SystemExit
log.info("resuming from %s", ckpt)
state = {"model": model.state_dict()}
dcp.load(state, checkpoint_id=ckpt)
model.load_state_dict(state["model"])
log.info("resumed model weights from step 2000")
model = DDP(model)
opt = torch.optim.AdamW(model.parameters(), 1e-4)
for step in range(2001, 2101):
    x = torch.randint(0, 1000, (8, 17))
    loss = nn.functional.cross_entropy(model(x[:, :-1]).flatten(0, 1), x[:, 1:].flatten())
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 20 == 0: log.info("step %d loss %.4f", step, loss.item())
log.info("done")
dist.destroy_process_group()
