#!/usr/bin/env bash
# torchrun 4 ranks, no --log-dir. Rank 3's 5th data chunk (steps 121-150) is a FIFO with
# no writer, so open() blocks forever on rank 3 (simulating a hung network-filesystem
# read); it prints nothing. Ranks 0-2 hit the 20 s gloo timeout in the DDP all-reduce.
# Flight Recorder: gloo records entries but never dumps on its own; train.py dumps the
# buffer (c10d._dump_fr_trace) per rank on an exception and on SIGTERM.
set -u
NAME=003_silent_fifo_hang
R1=/work/blind/r1
PY=/work/blind/venv/bin
RUN=$R1/runs/$NAME
WORK=/tmp/blindwork/exp${NAME%%_*}
rm -rf "$RUN" "$WORK"; mkdir -p "$RUN" "$WORK/data" "$WORK/fr"
cp $R1/gen/$NAME.py $WORK/train.py
cd $WORK
$PY/python - <<'PYEOF'
import os, torch
for r in range(4):
    os.makedirs(f"data/rank{r}", exist_ok=True)
    g = torch.Generator().manual_seed(r)
    for c in range(8):
        x = torch.randn(30 * 32, 16, generator=g)
        y = x[:, ::4].sum(1, keepdim=True)
        path = f"data/rank{r}/chunk_{c:04d}.bin"
        if r == 3 and c == 4:
            os.mkfifo(path)
            continue
        with open(path, "wb") as f:
            f.write(torch.cat([x, y], 1).numpy().tobytes())
PYEOF
export PYTHONUNBUFFERED=1
export TORCH_FR_BUFFER_SIZE=2000 TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_FR_DUMP_TEMP_FILE=$WORK/fr/fr_trace_rank_
timeout 180 $PY/torchrun --nproc-per-node 4 --master-port 29603 train.py --data $WORK/data 2>&1 | tee $RUN/console.log
echo "exit=${PIPESTATUS[0]}" >&2
ls -la $WORK/fr >&2
if [ -n "$(ls -A $WORK/fr)" ]; then cp -r $WORK/fr $RUN/flight_recorder; fi
