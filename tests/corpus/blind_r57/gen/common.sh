# shared helpers for run generators
PY=/work/blind/torchenv/bin/python
TR=/work/blind/torchenv/bin/torchrun
ACC=/work/blind/torchenv/bin/accelerate
G=/work/blind/r57/set/gen
R=/work/blind/r57/set/runs
W=/work/blind/r57/work
export SLURM_CONF=/var/tmp/blind57-slurm/slurm.conf
export PYTHONUNBUFFERED=1
newrun() { D=$R/$1; rm -rf "$D"; mkdir -p "$D"; cd "$D"; }
CGBASE=/sys/fs/cgroup/memory/process_api/81be9623817eaf56cb6d67b987c8b073
