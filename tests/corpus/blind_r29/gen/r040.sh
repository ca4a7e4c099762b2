source /work/blind/r29/gen/lib.sh; mk 040; cd $RAW/040
# per-rank resume; rank 2's shard was re-exported by a conversion script with 'module.' prefixed keys -> Missing/Unexpected keys on rank 2; @record error files; asctime
CKPT_ALL_RANKS=1 EPOCHS=1 STEPS=150 CKPT_EVERY=150 LOG_EVERY=50 CKPT_DIR=$RAW/040/ckpt timeout 120 $TR --nproc-per-node 4 --master-port 35400 $T > prep.log 2>&1
$PY - <<'PY'
import torch
p = "/work/blind/r29/gen/raw/040/ckpt/step_000150/rank2.pt"
sd = torch.load(p, weights_only=True); sd["model"] = {"module." + k: v for k, v in sd["model"].items()}; torch.save(sd, p)
PY
RECORD=1 LOGFMT=asctime RESUME="$RAW/040/ckpt/step_000150/rank{rank}.pt" CKPT_ALL_RANKS=1 EPOCHS=3 STEPS=400 LOG_EVERY=3 CKPT_DIR=$RAW/040/ckpt \
  timeout 170 $TR --nproc-per-node 4 --master-port 35401 $T > console.log 2>&1; echo "rc=$?" > rc
cp console.log $RUNS/040/console.log
