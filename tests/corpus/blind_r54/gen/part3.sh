#!/bin/bash
# Part 3: Slurm batch runs and healthy runs. Waits for part2.
source /work/blind/r54/set/gen/lib.sh
cd /tmp/r54
while ! grep -q "PART2 DONE" /tmp/r54/part2.out; do sleep 2; done

# 007 collective mismatch: srun 8 tasks, TORCH_DISTRIBUTED_DEBUG=DETAIL, manual grad all-reduce (DDP+DETAIL segfaulted
# at init in this build, first attempt discarded); rank 5 all_reduces a different shape at step 25
newrun 007; cd $R
TORCH_DISTRIBUTED_DEBUG=DETAIL NO_DDP=1 FAIL=mismatch FAIL_RANK=5 FAIL_STEP=25 STEPS=40 STEP_SLEEP=0.02 CHATTY=0 PG_TIMEOUT=30 MASTER_ADDR=127.0.0.1 MASTER_PORT=$(port 7) \
 timeout 100 srun -n8 -o rank%t.log bash -c 'export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID; exec '$PY' '$T > srun-console.log 2>&1; echo rc=$?
cd /tmp/r54

# 011 Slurm time limit (1 min) on a healthy-but-slow torchrun job
newrun 011; cd $R
J11=$(sbatch --parsable --time=1 -n1 -c1 -J pretrain -o slurm-%j.out --export=ALL,STEPS=100000,STEP_SLEEP=0.1,CHATTY=0 --wrap "$TR --nproc_per_node 4 --master_port $(port 11) $T"); echo J11=$J11
# 012 scancel as the cause: the job is cancelled by the user/operator after ~35 s
newrun 012; cd $R
J12=$(sbatch --parsable -n1 -c1 -J finetune -o slurm-%j.out --export=ALL,STEPS=100000,STEP_SLEEP=0.05,STYLE=glog --wrap "$TR --nproc_per_node 4 --master_port $(port 12) $T"); echo J12=$J12
sleep 35; scancel $J12
cd /tmp/r54

# 013 scancel as teardown: rank 3 shape error under srun; the batch script then scancels its own job
newrun 013; cd $R
cat > /tmp/r54/job13.sh <<EOT
#!/bin/bash
#SBATCH -n4 -J sft-13 -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$(port 13) FAIL=shape FAIL_RANK=3 FAIL_STEP=35 STEPS=60 PG_TIMEOUT=60
echo "job \$SLURM_JOB_ID starting on \$SLURM_JOB_NODELIST at \$(date)"
srun -o task%t.log bash -c 'export RANK=\$SLURM_PROCID WORLD_SIZE=\$SLURM_NTASKS LOCAL_RANK=\$SLURM_LOCALID; exec $PY $T' || { echo "step failed rc=\$?, cancelling job"; scancel \$SLURM_JOB_ID; }
EOT
J13=$(sbatch --parsable /tmp/r54/job13.sh); echo J13=$J13
while squeue -h -j $J13 2>/dev/null | grep -q .; do sleep 2; done
cd /tmp/r54

# healthy runs
# 027 two agents; rank 5 retries a metrics push twice, then succeeds; completes
newrun 027; P=$(port 27)
for n in 0 1; do FAIL=retry FAIL_RANK=5 FAIL_STEP=50 STEPS=100 STEP_SLEEP=0.01 timeout 110 $TR --nnodes 2 --node_rank $n --nproc_per_node 4 --master_addr 127.0.0.1 --master_port $P $T > $R/node$n.console.log 2>&1 & done; wait
# 028 handled exceptions with tracebacks on rank 2 (srun 4, per-task files)
newrun 028; cd $R
FAIL=handled FAIL_RANK=2 STEPS=100 STEP_SLEEP=0.01 STYLE=glog MASTER_ADDR=127.0.0.1 MASTER_PORT=$(port 28) \
 timeout 100 srun -n3 -o worker-%t.log bash -c 'export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID; exec '$PY' '$T > srun.log 2>&1; echo rc=$?
cd /tmp/r54
# 029 elastic restart: rank 1 raises on attempt 0, torchrun restarts the group, attempt 1 completes
newrun 029
FAIL=elastic_once FAIL_RANK=1 FAIL_STEP=20 STEPS=50 timeout 110 $TR --nproc_per_node 4 --max-restarts 2 --master_port $(port 29) $T > $R/console.log 2>&1; echo rc=$?
# 030 FutureWarning every step, 8 ranks, glog
newrun 030
WARN_EVERY_STEP=1 STEPS=40 STEP_SLEEP=0.01 STYLE=glog timeout 110 $TR --nproc_per_node 8 --master_port $(port 30) $T > $R/console.log 2>&1; echo rc=$?
# 031 still running when copied (copied after 25 s, then our run stopped)
newrun 031
STEPS=100000 STEP_SLEEP=0.05 timeout 100 $TR --nproc_per_node 4 --master_port $(port 31) $T > /tmp/r54/r031.log 2>&1 & P31=$!
sleep 25; cp /tmp/r54/r031.log $R/console.log; kill $P31; wait
# 032 clean early stop
newrun 032
FAIL=earlystop FAIL_RANK=0,1,2,3 FAIL_STEP=45 STEPS=200 STYLE=epoch timeout 100 $TR --nproc_per_node 4 --master_port $(port 32) $T > $R/console.log 2>&1; echo rc=$?
# 033 loss-scale overflow warnings during warm-up only (3 steps), then healthy
newrun 033
FAIL=skipinf STEPS=80 STEP_SLEEP=0.01 STYLE=none timeout 100 $TR --nproc_per_node 4 --master_port $(port 33) $T > $R/console.log 2>&1; echo rc=$?
# 034 Lightning DDP on CPU, healthy with its usual warnings
newrun 034
DEV=4 EPOCHS=3 timeout 110 $PY /work/blind/r54/set/gen/lit.py > $R/console.log 2>&1; echo rc=$?
# 035 healthy sbatch job: env dump, per-rank files via RANK_LOG, slurm output
newrun 035; cd $R
J35=$(sbatch --parsable -n1 -c1 -J eval35 -o slurm-%j.out --export=ALL,STEPS=60,ENV_DUMP=1,CHATTY=0,RANK_LOG=$R/rank{rank}.log,NCCL_ASYNC_ERROR_HANDLING=1,TORCH_NCCL_BLOCKING_WAIT=1 --wrap "$TR --nproc_per_node 4 --master_port $(port 35) $T"); echo J35=$J35
while squeue -h -j $J35 2>/dev/null | grep -q .; do sleep 2; done
cd /tmp/r54
# 036 healthy three agents (12 ranks), consoles as tar.gz
newrun 036; P=$(port 36); mkdir -p /tmp/r54/r036
for n in 0 1 2; do STEPS=50 CHATTY=0 STEP_SLEEP=0.01 timeout 110 $TR --nnodes 3 --node_rank $n --nproc_per_node 4 --master_addr 127.0.0.1 --master_port $P $T > /tmp/r54/r036/node$n.log 2>&1 & done; wait
tar -C /tmp/r54 -czf $R/consoles.tar.gz r036
# 037 healthy long run with tqdm, 400 steps; last 250 lines handed over
newrun 037
STEPS=400 STEP_SLEEP=0.005 TQDM=1 STYLE=epoch timeout 110 $TR --nproc_per_node 4 --master_port $(port 37) $T > /tmp/r54/r037-full.log 2>&1; echo rc=$?
tail -n 250 /tmp/r54/r037-full.log > $R/console_tail.log
# 038 healthy with TORCH_DISTRIBUTED_DEBUG=DETAIL
newrun 038
TORCH_DISTRIBUTED_DEBUG=DETAIL NO_DDP=1 STEPS=40 timeout 100 $TR --nproc_per_node 4 --master_port $(port 38) $T > $R/console.log 2>&1; echo rc=$?
while squeue -h -j $J11 2>/dev/null | grep -q .; do sleep 2; done
echo PART3 DONE
