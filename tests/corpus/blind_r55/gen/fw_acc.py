# accelerate-launched loop; healthy (with the usual warnings) unless MODE says otherwise
import sys, os, torch, torch.nn as nn, time
from accelerate import Accelerator
MODE = sys.argv[1]
acc = Accelerator(gradient_accumulation_steps=2)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
ds = torch.utils.data.TensorDataset(torch.randn(512, 16), torch.randn(512, 1))
dl = torch.utils.data.DataLoader(ds, batch_size=16, shuffle=True)
model, opt, dl = acc.prepare(model, opt, dl)
for epoch in range(3):
    for i, (x, y) in enumerate(dl):
        if MODE == "oom" and acc.process_index == 1 and epoch == 1 and i == 3:
            with open("/sys/fs/cgroup/memory/r55oom/cgroup.procs", "w") as f: f.write(str(os.getpid()))
            acc.print("precomputing eval embeddings") ; print(f"[proc {acc.process_index}] caching eval embeddings", flush=True)
            cache = [torch.ones(16, 1024, 1024) for _ in range(200)]
        with acc.accumulate(model):
            loss = nn.functional.mse_loss(model(x), y); acc.backward(loss); opt.step(); opt.zero_grad()
    acc.print(f"epoch {epoch} loss {loss.item():.4f}")
acc.wait_for_everyone(); acc.print("finished")
