#!/bin/bash
R=/work/blind/r8/runs/003_vocab_mismatch; rm -rf $R; mkdir -p $R
D=/work/blind/r8/meta/003_data; rm -rf $D; mkdir -p $D
/work/blind/venv/bin/python - <<PY
import json, random
random.seed(3)
words = [f"w{i}" for i in range(510)]
vocab = {"<pad>": 0, "<unk>": 1}; vocab.update({w: i + 2 for i, w in enumerate(words)})
json.dump({"vocab": vocab, "added_tokens": {"<|im_start|>": 512, "<|im_end|>": 513}}, open("$D/tokenizer.json", "w"))
json.dump({"d_model": 32, "vocab_size": 512, "n_layer": 1}, open("$D/config.json", "w"))
for r in range(4):
    with open(f"$D/shard_{r:02d}.txt", "w") as f:
        for d in range(200):
            t = " ".join(random.choice(words) for _ in range(20))
            if r == 3 and d >= 40:
                t = "<|im_start|> user " + t + " <|im_end|>"
            f.write(t + "\n")
PY
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1 DATA_DIR=$D
cd $R && timeout 90 srun --label -N1 -n4 -J lm-pretrain --kill-on-bad-exit=1 /work/blind/venv/bin/python /work/blind/r8/gen/003_vocab_mismatch.py > $R/slurm-train.out 2>&1
echo "rc=$?" > /work/blind/r8/meta/003.rc
