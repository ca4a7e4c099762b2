# resume.py -- resumes from per-rank checkpoint files (model + optimizer + rng) saved by the previous run
import os, time, logging, torch, torch.nn as nn, torch.distributed as dist
rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(format="%(asctime)s %(levelname)s [%(filename)s:%(lineno)d] %(message)s", level=logging.INFO)
log = logging.getLogger()

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(20, 40), nn.ReLU())
        self.head = nn.Linear(40, 5)
    def forward(self, x): return self.head(self.encoder(x))

CK = os.environ["CKPT_DIR"]
dist.init_process_group("gloo")
net = Net()
path = f"{CK}/step_000400/rank_{rank}.pt"
log.info("resuming from %s", path)
state = torch.load(path, weights_only=True)
net.load_state_dict(state["model"])
start = state["step"]
log.info("restored model at step %d", start)
model = nn.parallel.DistributedDataParallel(net)
opt = torch.optim.Adam(model.parameters(), 1e-3)
for step in range(start, start + 50):
    x = torch.randn(32, 20); y = torch.randint(0, 5, (32,))
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 10 == 0: log.info("step %d loss %.4f", step, loss.item())
    time.sleep(0.05)
log.info("finished at step %d", step)
