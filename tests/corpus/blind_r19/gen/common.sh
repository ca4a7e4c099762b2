# shared env for the generators
export PY=/work/blind/venv/bin/python
export TORCHRUN=/work/blind/venv/bin/torchrun
export G=/work/blind/r19/gen
export W=/work/blind/r19/work
export R=/work/blind/r19/runs
export SLURM_CONF=/work/blind/slurm/slurm.conf
export OMP_NUM_THREADS=1
export PATH=/work/blind/venv/bin:$PATH
