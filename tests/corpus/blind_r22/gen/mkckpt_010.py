import sys, os, torch; sys.path.insert(0, os.path.dirname(__file__))
from tinylib import tiny_model
d = sys.argv[1]; os.makedirs(d, exist_ok=True)
for r in range(4):
    h = 24 if r == 3 else 32
    torch.save({"model": tiny_model(hidden=h).state_dict(), "step": 200}, f"{d}/model_rank{r}.pt")
