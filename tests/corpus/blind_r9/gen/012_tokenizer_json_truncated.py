# causal LM finetune; the BPE tokenizer is loaded from the shared model directory on every rank
import os, sys, json, time, datetime
import torch, torch.distributed as dist

class BPETokenizer:
    def __init__(self, vocab, merges):
        self.vocab, self.merges = vocab, merges
    @classmethod
    def from_file(cls, path):
        with open(path, encoding="utf-8") as f:
            spec = json.load(f)
        return cls(spec["model"]["vocab"], spec["model"]["merges"])

def main():
    rank = int(os.environ["SLURM_PROCID"]); ws = int(os.environ["SLURM_NTASKS"])
    print(f"[{time.strftime('%H:%M:%S')}] task {rank}: loading config from {os.environ['MODEL_DIR']}/config.json", flush=True)
    cfg = json.load(open(os.path.join(os.environ["MODEL_DIR"], "config.json")))
    print(f"[{time.strftime('%H:%M:%S')}] task {rank}: model {cfg['model_type']} d_model={cfg['d_model']} layers={cfg['n_layer']}", flush=True)
    tok = BPETokenizer.from_file(os.path.join(os.environ["MODEL_DIR"], "tokenizer.json"))
    dist.init_process_group("gloo", init_method="env://", rank=rank, world_size=ws, timeout=datetime.timedelta(seconds=30))
    print(f"task {rank}: vocab {len(tok.vocab)}", flush=True)

if __name__ == "__main__":
    main()
