#!/bin/bash
# each task caches the experiment config locally; task 2's cache still holds revision 41
# (capacity_factor 1.25) while the experiment was moved to revision 42 (capacity_factor 1.0)
R=/work/blind/r13/runs/008_moe_capacity_alltoall
C=/tmp/r13_008_cache
rm -rf $R $C && mkdir -p $R && cd $R
for t in 0 1 2; do mkdir -p $C/task$t; echo '{"revision": 42, "capacity_factor": 1.0}' > $C/task$t/moe_config.json; done
echo '{"revision": 41, "capacity_factor": 1.25}' > $C/task2/moe_config.json
export SLURM_CONF=/work/blind/slurm/slurm.conf
timeout 150 sbatch --wait /work/blind/r13/gen/008_moe_capacity_alltoall.sbatch > /dev/null 2>&1
rm -rf $C
