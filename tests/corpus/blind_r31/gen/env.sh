export PYTHONPATH=/work/blind/r31/pylib
export OMP_NUM_THREADS=1
export PATH=/work/blind/r31/pylib/bin:/work/blind/venv/bin:$PATH
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_HOME=/work/blind/r31/hfhome
export SLURM_CONF=/work/blind/r31/slurm/slurm.conf
G=/work/blind/r31/gen
R=/work/blind/r31/runs
