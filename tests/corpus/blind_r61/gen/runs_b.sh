#!/bin/bash
source /work/blind/r61/gen/lib.sh
source /work/blind/slurm61/env.sh
# 018 (redo) sbatch, scancel mid-training while all healthy -> preemption-like SIGTERM
mkdir -p $R/018
cat > /tmp/b61_018.sbatch <<EOS
#!/bin/bash
#SBATCH -J sft-run -n 3 -o $R/018/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29718 LOGFMT=prefix STEP_SLEEP=1.5 STEPS=200 EVAL_EVERY=20 SAVE_AT=1000 SIGTERM_HANDLER=1
srun -l $PY $T
EOS
j18=$(sbatch --parsable /tmp/b61_018.sbatch)
( for i in $(seq 1 60); do [ "$(squeue -h -j $j18 -o %T)" = RUNNING ] && break; sleep 2; done; sleep 25; scancel $j18 ) &

# 007 two torchrun agents (--nnodes 2, c10d rendezvous), rank 3 (node1 local1) gets inf input -> NaN loss at step 4
start 007
for node in 0 1; do
  LOGFMT=prefix FAULT=nan FRANK=3 FSTEP=4 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29607 --rdzv-id job007 $T > $R/007/node$node.log 2>&1 &
done; wait; done_ $?

# 008 --nnodes 2 but the second node never comes: rendezvous join timeout
start 008
LOGFMT=logging $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29608 --rdzv-id job008 --rdzv-conf join_timeout=20 $T > $R/008/console.log 2>&1; done_ $?

# 011 mp.spawn with tcp:// init_method whose port is already taken -> rank 0 store bind fails (EADDRINUSE)
start 011
$PY -c "import socket,time; s=socket.socket(); s.bind(('127.0.0.1',29611)); s.listen(1); time.sleep(60)" & HOLD=$!
sleep 1
LAUNCH=spawn NPROC=3 INIT_METHOD=tcp://127.0.0.1:29611 PG_TIMEOUT=12 $PY $T > $R/011/console.log 2>&1; done_ $?
kill $HOLD

# 012 mp.spawn json lines, TORCH_DISTRIBUTED_DEBUG=DETAIL, rank 1 all_reduces 7 elements vs 5 elsewhere
start 012
LAUNCH=spawn NPROC=3 MASTER_PORT=29612 LOGFMT=json TORCH_DISTRIBUTED_DEBUG=DETAIL FAULT=mismatch FRANK=1 FSTEP=3 PG_TIMEOUT=12 $PY $T > $R/012/console.log 2>&1; done_ $?

# 013 mp.spawn plain (no rank): rank 2 has less data and exits 0 at step 4; peers lose it
start 013
LAUNCH=spawn NPROC=3 MASTER_PORT=29613 LOGFMT=plain FAULT=exit0 FRANK=2 FSTEP=4 PG_TIMEOUT=12 $PY $T > $R/013/console.log 2>&1; done_ $?
