#!/bin/bash
# Logs of this run were produced by the first launch of gen/006_carry_negatives_graph.sh (identical command line):
#   srun --label -J contrastive -n 4 python -u <script>   with init_method tcp://127.0.0.1:33006
# At that moment port 33006 (inside the ephemeral range 32768-60999) was already in use, so rank 0 failed to
# bind the TCPStore (EADDRINUSE) and ranks 1-3 timed out connecting. The clash was not caused on purpose and
# cannot be reproduced deterministically; re-running this script will normally train (and fail as run 006 does).
R=/work/blind/r13/runs/021_store_port_taken
mkdir -p $R && cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1
timeout 90 srun --label -J contrastive -n 4 /work/blind/venv/bin/python -u /work/blind/r13/gen/021_store_port_taken.py > $R/console.rerun.log 2>&1
echo "srun rc=$?" >> $R/console.rerun.log
