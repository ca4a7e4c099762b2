# common helpers for the r61 generators
R=/work/blind/r61/runs; T=/work/blind/r61/gen/train.py
PY=/work/blind/torchenv/bin/python; TR=/work/blind/torchenv/bin/torchrun; ACC=/work/blind/torchenv/bin/accelerate
export PATH=/work/blind/torchenv/bin:$PATH
mkdir -p /tmp/b61work
# start() NNN : make run dir, cd to a neutral work dir
start() { N=$1; mkdir -p $R/$N; cd /tmp/b61work; rm -rf /tmp/b61ckpt; T0=$(date +%s); }
done_() { echo "run $N rc=$1 ($(( $(date +%s)-T0 ))s)"; }
