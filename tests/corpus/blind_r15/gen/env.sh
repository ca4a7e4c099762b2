export PY=/work/blind/venv/bin/python
export TORCHRUN=/work/blind/venv/bin/torchrun
export GEN=/work/blind/r15/gen
export DATA=/work/blind/r15/data
export RUNS=/work/blind/r15/runs
export SLURM_CONF=/work/blind/slurm/slurm.conf
export PATH=/work/blind/venv/bin:$PATH
