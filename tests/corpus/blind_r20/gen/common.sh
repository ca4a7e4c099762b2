export PY=/work/blind/venv/bin/python
export TR=/work/blind/venv/bin/torchrun
export G=/work/blind/r20/gen
export W=/work/blind/r20/work
export R=/work/blind/r20/runs
export SLURM_CONF=/work/blind/slurm20/slurm.conf
export PATH=/work/blind/venv/bin:$PATH
export PYTHONUNBUFFERED=1
