# helpers: source then call. R=run dir.
PY=/work/blind/torchenv/bin/python; TR=/work/blind/torchenv/bin/torchrun; T=/work/blind/r54/set/gen/train.py
RUNS=/work/blind/r54/set/runs
source /work/blind/slurm54/env.sh
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1 PYTHONWARNINGS=default
newrun() { R=$RUNS/$1; rm -rf $R; mkdir -p $R; echo "== run $1" ; }
port() { echo $((29600 + 10#$1 * 3)); }
