# sourced by generators
export SLURM_CONF=/work/blind/slurm/slurm.conf
PY=/work/blind/venv/bin/python
TORCHRUN=/work/blind/venv/bin/torchrun
GEN=/work/blind/r16/gen
TRAIN=$GEN/train.py
R=/work/blind/r16/runs/$NAME
rm -rf "$R"; mkdir -p "$R"; cd "$R"
export PYTHONUNBUFFERED=1
