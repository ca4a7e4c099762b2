source /work/blind/r63/gen/common.sh
source /work/blind/slurm63/env.sh
waitjob() { while squeue -h -j $1 2>/dev/null | grep -q .; do sleep 2; done; sleep 1; }
r008() { rd 008; cat > job.sbatch <<'J'
#!/bin/bash
#SBATCH -J gpt-tiny
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
#SBATCH --time=00:10:00
echo "Starting on $(hostname) at $(date)"
MODE=ckpt_save MAX_STEPS=12 OUT=/tmp/hf008 srun /work/blind/torchenv/bin/torchrun --nproc-per-node 2 --master-port 29608 /work/blind/r63/gen/hf_trainer.py
echo "Finished at $(date)"
J
  J=$(sbatch --parsable -o slurm-%j.out job.sbatch); waitjob $J; rm job.sbatch; }
r009() { rd 009; cat > job.sbatch <<'J'
#!/bin/bash
#SBATCH -J lit-reg
#SBATCH --ntasks=2
#SBATCH --time=00:10:00
MODE=ok EPOCHS=100000 srun /work/blind/torchenv/bin/python /work/blind/r63/gen/lit.py
J
  J=$(sbatch --parsable -o slurm-%j.out job.sbatch); sleep 25; scancel --signal=TERM $J; waitjob $J; rm job.sbatch; }
r010() { rd 010; cat > job.sbatch <<'J'
#!/bin/bash
#SBATCH -J ddp-mlp
#SBATCH --ntasks=2
#SBATCH --time=00:10:00
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29610 PG_TIMEOUT=15
FAULT=mismatch_op FAULT_RANK=0 FAULT_STEP=4 srun -l /work/blind/torchenv/bin/python /work/blind/r63/gen/ddp2.py
J
  J=$(sbatch --parsable -o slurm-%j.out job.sbatch); waitjob $J; rm job.sbatch; }
r011() { rd 011; cat > job.sbatch <<'J'
#!/bin/bash
#SBATCH -J regress
#SBATCH --ntasks=3
#SBATCH --time=00:10:00
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29611 LOGFMT=logging
FAULT=nan_data FAULT_RANK=2 FAULT_STEP=9 srun --kill-on-bad-exit=1 -o %x-%j-%t.out /work/blind/torchenv/bin/python /work/blind/r63/gen/ddp2.py
J
  J=$(sbatch --parsable -o slurm-%j.out job.sbatch); waitjob $J; rm job.sbatch; }
r012() { rd 012; CG=/sys/fs/cgroup/memory/b63_012; mkdir -p $CG; echo $((1100*1024*1024)) > $CG/memory.limit_in_bytes;
  bash -c "echo \$\$ > $CG/cgroup.procs; FAULT=oom_cgroup FAULT_RANK=0 FAULT_STEP=6 SPAWN=2 MASTER_PORT=29612 exec $PY $G/ddp2.py" > console.log 2>&1; sleep 1; rmdir $CG; }
r013() { rd 013; export FAULT=spin FAULT_RANK=2 FAULT_STEP=6 PG_TIMEOUT=15 LOGFMT=logging;
  $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29613 $G/ddp2.py > node0.log 2>&1 &
  sleep 1; $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29613 $G/ddp2.py > node1.log 2>&1; wait;
  tar czf logs.tar.gz node0.log node1.log; rm node0.log node1.log; }
r014() { rd 014; cat > job.sbatch <<'J'
#!/bin/bash
#SBATCH -J pretrain-lm
#SBATCH --ntasks=3
#SBATCH --time=00:01:00
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29614 PG_TIMEOUT=3600
FAULT=missing_shard FAULT_RANK=1 FAULT_STEP=3 srun -l /work/blind/torchenv/bin/python /work/blind/r63/gen/ddp2.py
J
  J=$(sbatch --parsable -o slurm-%j.out job.sbatch); waitjob $J; rm job.sbatch; }
"$@"
