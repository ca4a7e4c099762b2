#!/bin/bash
R=/work/blind/r9/runs/012_tokenizer_json_truncated; rm -rf $R; mkdir -p $R/models/tiny-gpt-ft; cd $R
# build a real tokenizer.json, then truncate it like an interrupted rsync to the shared model dir
/work/blind/venv/bin/python - <<'P'
import json, random
random.seed(0)
chars = [chr(c) for c in range(97, 123)]
vocab = {c: i for i, c in enumerate(chars)}
merges = []
for i in range(3000):
    a, b = random.choice(list(vocab)[:200]), random.choice(chars)
    tok = a + b
    if tok not in vocab:
        vocab[tok] = len(vocab); merges.append(f"{a} {b}")
spec = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [{"id": 0, "content": "<|endoftext|>", "special": True}],
        "normalizer": None, "pre_tokenizer": {"type": "ByteLevel"}, "model": {"type": "BPE", "vocab": vocab, "merges": merges}}
d = "/work/blind/r9/runs/012_tokenizer_json_truncated/models/tiny-gpt-ft/"
s = json.dumps(spec, indent=2)
open(d + "tokenizer.json", "w").write(s[: int(len(s) * 0.62)])
json.dump({"model_type": "gpt2", "d_model": 256, "n_layer": 4, "vocab_size": len(vocab)}, open(d + "config.json", "w"))
P
export SLURM_CONF=/work/blind/slurm/slurm.conf
sbatch --wait /work/blind/r9/gen/012_tokenizer_json_truncated.sbatch
