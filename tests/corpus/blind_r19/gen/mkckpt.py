import sys, os, torch
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train import Net
out, dim, hidden = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
torch.manual_seed(7)
m = Net(dim, hidden)
torch.save({"model": m.state_dict(), "step": 4000, "pad": torch.randn(100_000)}, out)
