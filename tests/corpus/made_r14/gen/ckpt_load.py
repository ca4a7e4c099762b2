import torch
print("resuming from ckpt.pt", flush=True)
state = torch.load("ckpt.pt", weights_only=False)
