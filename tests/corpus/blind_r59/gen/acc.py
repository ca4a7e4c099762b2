import os, time, datetime, torch, torch.nn as nn
from accelerate import Accelerator
from accelerate.utils import InitProcessGroupKwargs
acc = Accelerator(cpu=True, kwargs_handlers=[InitProcessGroupKwargs(timeout=datetime.timedelta(seconds=15))])
FAIL_RANK = int(os.environ.get("FAIL_RANK", "-1"))
m = nn.Linear(16, 1); opt = torch.optim.SGD(m.parameters(), lr=0.01)
x = torch.randn(64, 16); y = x.sum(1, keepdim=True)
dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=4)
m, opt, dl = acc.prepare(m, opt, dl)
for step, (a, b) in enumerate(dl):
    if acc.process_index == FAIL_RANK and step == 2:
        while True:  # stuck retrying an empty prefetch queue
            time.sleep(0.05)
    loss = ((m(a) - b) ** 2).mean()
    acc.backward(loss); opt.step(); opt.zero_grad()
    acc.print(f"step {step} loss {loss.item():.4f}")
    time.sleep(0.2)
acc.print("done")
