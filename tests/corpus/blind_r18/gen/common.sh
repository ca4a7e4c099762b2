# sourced by gNNN.sh
set -u
GEN=/work/blind/r18/gen
R18=/work/blind/r18
PY=/work/blind/venv/bin/python
TORCHRUN=/work/blind/venv/bin/torchrun
export PYTHONPATH=$GEN
export PATH=$GEN/bin:/work/blind/venv/bin:$PATH
export SLURM_CONF=/work/blind/slurm/slurm.conf
export OMP_NUM_THREADS=1
newrun() { RUN=$R18/runs/$1; rm -rf "$RUN"; mkdir -p "$RUN"; WORK=$R18/work/$1; rm -rf "$WORK"; mkdir -p "$WORK"; cd "$RUN"; }
kill_helpers() { if [ -f $R18/work/helper_pids ]; then for p in $(cat $R18/work/helper_pids); do kill $p 2>/dev/null; done; rm -f $R18/work/helper_pids; fi; }
