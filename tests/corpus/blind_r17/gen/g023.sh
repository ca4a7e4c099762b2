#!/bin/bash
# 023: sbatch, srun -l, 3 tasks, long training. 15 s in the node is marked DOWN (simulated node failure via
# scontrol); Slurm kills the job on the failed node. No rank started it.
export SLURM_CONF=/work/blind/slurm/slurm.conf
R=/work/blind/r17/runs/023_node_down_mid_job; rm -rf $R; mkdir -p $R; cd $R
W=/work/blind/r17/mnt/023w; rm -rf $W; mkdir -p $W
cat > $W/job.sh <<'IN'
#!/bin/bash
#SBATCH -J longrun
#SBATCH -n 3
#SBATCH -t 10
export PYTHONPATH=/work/blind/r17/gen PG_TIMEOUT=15 STEPS=500 STEP_SLEEP=0.5
date; echo "nodes: $SLURM_JOB_NODELIST"
srun -l bash -c 'RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID MASTER_ADDR=127.0.0.1 MASTER_PORT=22231 exec /work/blind/venv/bin/python /work/blind/r17/gen/train_basic.py'
IN
jid=$(sbatch --parsable -D $R $W/job.sh)
until grep -q 'step 10 ' slurm-$jid.out 2>/dev/null; do sleep 1; done
scontrol update nodename=vm state=down reason="r17: simulated node failure"
for i in $(seq 1 30); do squeue -h -j $jid -t R 2>/dev/null | grep -q . || break; sleep 2; done
# batch job is requeued on node failure: cancel it while pending so it does not rerun
sleep 3; scancel $jid
scontrol update nodename=vm state=resume
sinfo
rm -rf $W
