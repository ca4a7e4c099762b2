#!/bin/bash
# torchrun --log-dir with --tee 3 (console gets every rank's lines with [defaultN]: prefixes), 2 workers.
R=/work/blind/r11; RUN=$R/runs/008_fsdp2_full_sd_load; S=$R/scratch/008
rm -rf $RUN $S && mkdir -p $RUN $S && cd $RUN
OMP_NUM_THREADS=1 /work/blind/venv/bin/python - <<'PY'
import sys, torch; sys.path.insert(0, "/work/blind/r11/gen")
import importlib; m = importlib.import_module("008_fsdp2_full_sd_load")
torch.manual_seed(1); torch.save(m.Model().state_dict(), "/work/blind/r11/scratch/008/pretrained_full.pt")
PY
export OMP_NUM_THREADS=1 PRETRAINED=$S/pretrained_full.pt
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 2 --log-dir $RUN/torchrun_logs --tee 3 \
  $R/gen/008_fsdp2_full_sd_load.py > console.log 2>&1
rm -rf $S
