# decoder-only toy LM with rotary embeddings; rank 0 loads the init weights, other ranks build on the
# meta device and receive the state dict by broadcast (saves host RAM on big models)
import os, math, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta

class Rotary(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim)), persistent=False)
    def forward(self, x):
        t = torch.arange(x.shape[1], dtype=torch.float32)
        f = torch.outer(t, self.inv_freq)
        cos, sin = f.cos()[None], f.sin()[None]
        x1, x2 = x[..., ::2], x[..., 1::2]
        return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], -1)

class TinyLM(nn.Module):
    def __init__(self, vocab=256, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d); self.rot = Rotary(d)
        self.mix = nn.Linear(d, d); self.out = nn.Linear(d, vocab)
    def forward(self, ids):
        return self.out(torch.relu(self.mix(self.rot(self.emb(ids)))))

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    if rank == 0:
        torch.manual_seed(0); model = TinyLM()
        print(f"[init] rank0 materialised {sum(p.numel() for p in model.parameters())} params", flush=True)
    else:
        with torch.device("meta"):
            model = TinyLM()
    sd = model.state_dict()
    if rank != 0:
        sd = {k: torch.empty_like(v, device="cpu") for k, v in sd.items()}
    for k in sorted(sd):
        dist.broadcast(sd[k], 0)
    if rank != 0:
        model.load_state_dict(sd, assign=True)
    print(f"[init] rank{rank} weights synced", flush=True)
    model = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    for step in range(40):
        ids = torch.randint(0, 256, (8, 33), generator=g)
        logits = model(ids[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, 256), ids[:, 1:].reshape(-1))
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % 10 == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
