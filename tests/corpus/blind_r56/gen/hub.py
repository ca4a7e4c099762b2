"""Rank 0 downloads the tokenizer first (others wait at a barrier), then everyone loads it from cache."""
import os
from datetime import timedelta
import torch.distributed as dist
from transformers import AutoTokenizer

rank = int(os.environ["RANK"])
dist.init_process_group("gloo", timeout=timedelta(seconds=20))
print(f"[rank{rank}] init done, world={dist.get_world_size()}", flush=True)
if rank == 0:
    print(f"[rank0] downloading tokenizer bert-base-uncased from {os.environ.get('HF_ENDPOINT')}", flush=True)
    tok = AutoTokenizer.from_pretrained("bert-base-uncased")
    dist.barrier()
else:
    dist.barrier()
    tok = AutoTokenizer.from_pretrained("bert-base-uncased")
print(f"[rank{rank}] vocab {tok.vocab_size}", flush=True)
dist.destroy_process_group()
