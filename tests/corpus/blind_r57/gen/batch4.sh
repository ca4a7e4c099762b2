#!/usr/bin/env bash
# odd rank out, unprefixed thread errors, restarts, launch failures
source "$(dirname "$0")/common.sh"
r014() { newrun 014; SCEN=mm_coll TARGET=2 AT=4 FMT=logging timeout 120 $TR --nproc-per-node 4 --master-port 29514 $G/worker.py > console.log 2>&1; }
r015() { newrun 015; sbatch -W -J sync -n 3 -o slurm-%j.out --wrap "SCEN=mm_size TARGET=1 AT=3 FMT=json MASTER_PORT=29515 srun -l $PY $G/worker.py" >/dev/null; }
r016() { newrun 016; mkdir -p node0 node1
  (SCEN=uneven TARGET=3 AT=4 STEPS=10 FMT=logging ALLLOG=1 timeout 120 $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29516 $G/worker.py > node0/agent.log 2>&1 &
   SCEN=uneven TARGET=3 AT=4 STEPS=10 FMT=logging ALLLOG=1 timeout 120 $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29516 $G/worker.py > node1/agent.log 2>&1; wait); }
r017() { newrun 017; SCEN=thread TARGET=1 AT=3 FMT=logging timeout 120 $TR --nproc-per-node 3 --master-port 29517 $G/worker.py > console.log 2>&1; }
r018() { newrun 018; TORCH_DISTRIBUTED_DEBUG=DETAIL TARGET=4 AT=3 KIND=coll timeout 120 $TR --nproc-per-node 6 --master-port 29518 --log-dir tl --redirects 3 $G/mm.py > /dev/null 2>&1; (cd tl && zip -qr ../rank_logs.zip .); rm -rf tl; }
r019() { newrun 019; sbatch -W -J evalsync -n 3 -o slurm-%j.out --wrap "TORCH_DISTRIBUTED_DEBUG=DETAIL TARGET=1 AT=5 KIND=size MASTER_PORT=29519 srun $PY $G/mm.py" >/dev/null; }
"$@"
