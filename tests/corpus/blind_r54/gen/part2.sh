#!/bin/bash
# Part 2: multi-node torchrun, two-failure, partial hand-overs, rendezvous. Runs after part1 (waits for it).
source /work/blind/r54/set/gen/lib.sh
cd /tmp/r54
while ! grep -q "PART1 DONE" /tmp/r54/part1.out; do sleep 2; done

# 001 two torchrun agents ("nodes"), rank 6 (node 1) KeyError at step 150/200, chatty ISO
newrun 001; P=$(port 1)
for n in 0 1; do FAIL=exception FAIL_RANK=6 FAIL_STEP=150 STEPS=200 STEP_SLEEP=0.01 timeout 110 $TR --nnodes 2 --node_rank $n --nproc_per_node 4 --master_addr 127.0.0.1 --master_port $P $T > $R/node$n.console.log 2>&1 & done; wait

# 002 two agents, rank 5 missing data shard; node1 console is lost, its --log-dir tree survives
newrun 002; P=$(port 2)
FAIL=data FAIL_RANK=5 FAIL_STEP=90 STEPS=120 STEP_SLEEP=0.01 STYLE=glog timeout 110 $TR --nnodes 2 --node_rank 0 --nproc_per_node 4 --master_addr 127.0.0.1 --master_port $P $T > $R/node0-console.log 2>&1 &
FAIL=data FAIL_RANK=5 FAIL_STEP=90 STEPS=120 STEP_SLEEP=0.01 STYLE=glog timeout 110 $TR --nnodes 2 --node_rank 1 --nproc_per_node 4 --master_addr 127.0.0.1 --master_port $P --log-dir /tmp/r54/r002n1 --redirects 3 $T > /tmp/r54/r002-node1-console.log 2>&1 &
wait; mkdir -p $R/node1-logdir; cp -r /tmp/r54/r002n1/* $R/node1-logdir/

# 014 two independent failures: srun 8 tasks; rank 1 ENOSPC at step 30, rank 6 missing shard 1.5 s later
newrun 014; mkdir -p /tmp/r54/full14; mount -t tmpfs -o size=4m tmpfs /tmp/r54/full14; cd $R
FAIL_R1=ckpt_save FAIL_R6=data FAIL_DELAY_R6=1.5 FAIL_STEP=30 STEPS=50 CKPT_DIR=/tmp/r54/full14/ck CKPT_PAD=2000000 PG_TIMEOUT=30 MASTER_ADDR=127.0.0.1 MASTER_PORT=$(port 14) \
 timeout 100 srun -n8 -o out.%t.txt /work/blind/r54/set/gen/wrap.sh > srun.txt 2>&1; echo rc=$?
cd /tmp/r54; umount /tmp/r54/full14

# 024 survivors only: srun 4 tasks, rank 2 shape error; rank 2's file not handed over (dropped whole file)
newrun 024; cd $R; mkdir -p /tmp/r54/r024
FAIL=shape FAIL_RANK=2 FAIL_STEP=55 STEPS=80 PG_TIMEOUT=30 MASTER_ADDR=127.0.0.1 MASTER_PORT=$(port 24) \
 timeout 100 srun -n4 -o /tmp/r54/r024/rank-%t.log bash -c 'export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID; exec '$PY' '$T > srun-stderr.log 2>&1; echo rc=$?
cp /tmp/r54/r024/rank-0.log /tmp/r54/r024/rank-1.log /tmp/r54/r024/rank-3.log $R/; cp /tmp/r54/r024/rank-2.log /tmp/r54/r024-dropped-rank2.log
cd /tmp/r54

# 025 long chatty run with tqdm, rank 3 KeyError at step 380/400; only the last 300 lines of the console handed over
newrun 025
FAIL=exception FAIL_RANK=3 FAIL_STEP=380 STEPS=400 STEP_SLEEP=0.005 TQDM=1 timeout 110 $TR --nproc_per_node 4 --master_port $(port 25) $T > /tmp/r54/r025-full.log 2>&1; echo rc=$?
tail -n 300 /tmp/r54/r025-full.log > $R/console_tail.log

# 026 divergence: huge LR, every rank's nan guard fires at once; torchrun --log-dir tree zipped
newrun 026
FAIL=nan_guard LR=30 STEPS=200 STYLE=epoch timeout 100 $TR --nproc_per_node 4 --master_port $(port 26) --log-dir /tmp/r54/r026logs --redirects 3 --tee 3 $T > $R/console.log 2>&1; echo rc=$?
(cd /tmp/r54 && rm -f $R/torchrun_logs.zip && python3 -c "import shutil; shutil.make_archive('$R/torchrun_logs','zip','/tmp/r54','r026logs')")

# 009 rendezvous: c10d rendezvous for 2 nodes, only one agent ever joins (join_timeout 20 s)
newrun 009
STEPS=20 timeout 100 $TR --nnodes 2 --nproc_per_node 4 --rdzv_backend c10d --rdzv_endpoint 127.0.0.1:$(port 9) --rdzv_id job9 --rdzv_conf join_timeout=20 $T > $R/console.log 2>&1; echo rc=$?

# 010 store unreachable: agent pointed at a c10d rendezvous endpoint on an unroutable host
newrun 010
STEPS=20 timeout 100 $TR --nnodes 2 --nproc_per_node 4 --rdzv_backend c10d --rdzv_endpoint 10.255.255.1:29400 --rdzv_id job10 --rdzv_conf read_timeout=20,join_timeout=20 $T > $R/console.log 2>&1; echo rc=$?

# 022 three agents, 12 ranks, rank 9 (node 2) dtype error; consoles in a tar.gz
newrun 022; P=$(port 22); mkdir -p /tmp/r54/r022
for n in 0 1 2; do FAIL=dtype FAIL_RANK=9 FAIL_STEP=40 STEPS=60 CHATTY=0 STEP_SLEEP=0.01 ENV_DUMP=1 timeout 110 $TR --nnodes 3 --node_rank $n --nproc_per_node 4 --master_addr 127.0.0.1 --master_port $P $T > /tmp/r54/r022/node$n.log 2>&1 & done; wait
tar -C /tmp/r54 -czf $R/consoles.tar.gz r022

# 023 hub unreachable at start-up on rank 0 (HF_ENDPOINT points at a closed port)
newrun 023
HF_ENDPOINT=http://127.0.0.1:9 HF_HUB_DOWNLOAD_TIMEOUT=5 FAIL=hub FAIL_RANK=0 STEPS=20 timeout 100 $TR --nproc_per_node 4 --master_port $(port 23) $T > $R/console.log 2>&1; echo rc=$?
echo PART2 DONE
