import sys, os, torch
sys.argv += []
out, n, hid = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.environ["HIDDEN"] = str(hid)
import importlib.util
spec = importlib.util.spec_from_file_location("tr", "/work/blind/r20/gen/train.py"); tr = importlib.util.module_from_spec(spec); spec.loader.exec_module(tr)
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)
m = tr.Model(hid=hid); opt = torch.optim.AdamW(m.parameters(), lr=0.05)
m(torch.randn(4,16)).sum().backward(); opt.step()
for r in range(n):
    torch.save({"model": m.state_dict(), "optim": opt.state_dict(), "step": 20, "pad": torch.randn(200000)}, f"{out}/shard_{r:02d}.pt")
print("ok")
