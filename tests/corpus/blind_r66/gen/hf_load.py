# HF start-up: download a model from the hub (no internet here)
import os, torch.distributed as dist, datetime
from transformers import AutoModelForCausalLM, AutoTokenizer
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
r = dist.get_rank()
print(f"[rank {r}] loading gpt2", flush=True)
tok = AutoTokenizer.from_pretrained("openai-community/gpt2")
model = AutoModelForCausalLM.from_pretrained("openai-community/gpt2")
