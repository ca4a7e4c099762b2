#!/bin/bash
# Part 5: time limit as teardown of a hang; missing node console with kernel OOM evidence.
source /work/blind/r54/set/gen/lib.sh
cd /tmp/r54
# 043 rank 2 hangs silently (PG timeout 600 s, so no collective timeout fires); the 1-minute Slurm time limit tears it down
newrun 043; cd $R
cat > /tmp/r54/job43.sh <<EOT
#!/bin/bash
#SBATCH -n4 --time=1 -J pt-43 -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$(port 43) FAIL=hang FAIL_RANK=2 FAIL_STEP=120 STEPS=100000 PG_TIMEOUT=600 STEP_SLEEP=0.05 CHATTY=0 STYLE=glog
srun -o rank%t.log bash -c 'export RANK=\$SLURM_PROCID WORLD_SIZE=\$SLURM_NTASKS LOCAL_RANK=\$SLURM_LOCALID; exec $PY $T'
EOT
J43=$(sbatch --parsable /tmp/r54/job43.sh); echo J43=$J43
cd /tmp/r54
# 044 two agents; rank 7 (node 1) is killed by the kernel memcg OOM killer; node1's console is lost: node0 console + kern.log only
newrun 044; P=$(port 44); CG=/sys/fs/cgroup/memory/r54oom2; mkdir -p $CG; echo $((300*1024*1024)) > $CG/memory.limit_in_bytes
n0=$(dmesg | wc -l)
for n in 0 1; do FAIL=cgroup_oom CGROUP=$CG FAIL_RANK=7 FAIL_STEP=80 STEPS=120 STEP_SLEEP=0.02 STYLE=epoch timeout 110 $TR --nnodes 2 --node_rank $n --nproc_per_node 4 --master_addr 127.0.0.1 --master_port $P $T > /tmp/r54/r044-node$n.log 2>&1 & done; wait
sleep 1; dmesg -T | tail -n +$((n0+1)) > $R/kern.log; cp /tmp/r54/r044-node0.log $R/node0-console.log
while squeue -h -j $J43 2>/dev/null | grep -q .; do sleep 2; done
echo PART5 DONE
