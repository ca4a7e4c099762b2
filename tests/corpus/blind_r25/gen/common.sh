# sourced by gen/runs/*.sh
set -u
R25=/work/blind/r25
export PY=/work/blind/venv/bin/python
export TORCHRUN=/work/blind/venv/bin/torchrun
export PYTHONPATH=$R25/gen
export OMP_NUM_THREADS=1
export PYTHONUNBUFFERED=1
newrun() {  # newrun NNN_name  -> sets W (work dir) and OUT (run dir), both fresh
  RUN=$1
  W=$R25/work/exp${RUN%%_*}
  OUT=$R25/runs/$RUN
  rm -rf "$W" "$OUT"
  mkdir -p "$W" "$OUT"
  cd "$W"
}
base_config() {  # base_config FILE ; then append/override sections with --set
  cat > "$1" <<EOT
[run]
name = "tinylm-ablation"
seed = 1234
max_steps = ${MAX_STEPS:-60}
log_every = ${LOG_EVERY:-5}
eval_every = ${EVAL_EVERY:-20}
ckpt_every = ${CKPT_EVERY:-25}

[model]
vocab_size = 512
d_model = 64
n_layers = 2
n_heads = 4
seq_len = 64

[data]
train_dir = "$W/data/train"
eval_dir = "$W/data/val"
batch_size = 8
num_workers = 2
eval_batches = 4

[optim]
lr = 3e-3
weight_decay = 0.1
warmup_steps = 10
grad_clip = 1.0

[ckpt]
dir = "$W/ckpt"

[dist]
timeout_s = ${DIST_TIMEOUT:-30}
EOT
}
make_data() {  # make_data [extra args for train]
  $PY $R25/gen/make_data.py $W/data/train --shards ${SHARDS:-4} --samples ${SAMPLES:-128} "$@" >/dev/null
  $PY $R25/gen/make_data.py $W/data/val --shards ${SHARDS:-4} --samples 32 --seed 99 >/dev/null
}
