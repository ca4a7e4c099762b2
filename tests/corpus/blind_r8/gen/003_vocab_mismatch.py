# srun --label, 4 tasks. Text is tokenized on the fly with tokenizer.json (v2, which added
# chat special tokens <|im_start|>/<|im_end|> as ids 512/513) while the model config still
# says vocab_size=512. Only shard 3 (chat-formatted data) contains the special tokens,
# so only rank 3 feeds ids >= 512 into nn.Embedding -> IndexError.
import json, os, random, sys, time, warnings
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29903")
D = os.environ["DATA_DIR"]

class Tok:
    def __init__(self, path):
        j = json.load(open(path)); self.vocab = j["vocab"]; self.added = j["added_tokens"]
    def encode(self, text):
        out = []
        for w in text.split():
            if w in self.added: out.append(self.added[w])
            else: out.append(self.vocab.get(w, self.vocab["<unk>"]))
        return out

def main():
    dist.init_process_group("gloo", rank=rank, world_size=world)
    cfg = json.load(open(f"{D}/config.json"))
    print(f"model config: d_model={cfg['d_model']} vocab_size={cfg['vocab_size']} n_layer={cfg['n_layer']}", flush=True)
    tok = Tok(f"{D}/tokenizer.json")
    print(f"tokenizer loaded: {len(tok.vocab)} base tokens + {len(tok.added)} added", flush=True)
    if len(tok.vocab) + len(tok.added) != cfg["vocab_size"]:
        warnings.warn("tokenizer size does not match model vocab_size; make sure you resized embeddings")
    torch.manual_seed(0)
    emb = nn.Embedding(cfg["vocab_size"], cfg["d_model"])
    layer = nn.TransformerEncoderLayer(cfg["d_model"], 4, 64, batch_first=True)
    head = nn.Linear(cfg["d_model"], cfg["vocab_size"])
    model = nn.parallel.DistributedDataParallel(nn.ModuleList([emb, layer, head]))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    lines = open(f"{D}/shard_{rank:02d}.txt").read().splitlines()
    print(f"reading shard_{rank:02d}.txt: {len(lines)} docs", flush=True)
    for step in range(1, 26):
        batch = [tok.encode(lines[(step * 4 + i) % len(lines)])[:16] for i in range(4)]
        batch = [b + [0] * (16 - len(b)) for b in batch]
        x = torch.tensor(batch)
        h = model.module[1](model.module[0](x))
        loss = nn.functional.cross_entropy(model.module[2](h)[:, :-1].flatten(0, 1), x[:, 1:].flatten())
        opt.zero_grad(); loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad); p.grad /= world
        opt.step()
        if step % 5 == 0:
            print(f"step {step:4d} | loss {loss.item():.3f}", flush=True)
        time.sleep(0.1)
    print("done", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
