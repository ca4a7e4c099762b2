export PY=/work/blind/venv/bin/python TR=/work/blind/venv/bin/torchrun T=/work/blind/r29/gen/train.py
export RUNS=/work/blind/r29/runs RAW=/work/blind/r29/gen/raw SLURM_CONF=/work/blind/r29/slurm/slurm.conf
export PYTHONUNBUFFERED=1
mk() { mkdir -p $RUNS/$1 $RAW/$1; }
