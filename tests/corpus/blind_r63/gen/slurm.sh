source /work/blind/r63/gen/common.sh
source /work/blind/slurm63/env.sh
# submit a job and wait for it; copy outputs
sub() { local jid; jid=$(sbatch --parsable "$@"); echo $jid; }
waitjob() { while squeue -h -j $1 2>/dev/null | grep -q .; do sleep 2; done; sleep 1; }
r028() { rd 028; cat > job.sbatch <<'J'
#!/bin/bash
#SBATCH -J llm-pretrain
#SBATCH -N 1
#SBATCH --ntasks=3
#SBATCH --cpus-per-task=1
#SBATCH --time=00:10:00
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29628
echo "job $SLURM_JOB_ID on $SLURM_JOB_NODELIST ntasks=$SLURM_NTASKS"
ulimit -v 6000000
FAULT=alloc_fail FAULT_RANK=2 FAULT_STEP=6 srun -l --kill-on-bad-exit=1 /work/blind/torchenv/bin/python /work/blind/r63/gen/ddp.py
J
  J=$(sub -o slurm-%j.out job.sbatch); waitjob $J; rm job.sbatch; }
r029() { rd 029; cat > job.sbatch <<'J'
#!/bin/bash
#SBATCH -J vit-ft
#SBATCH --ntasks=3
#SBATCH --time=00:10:00
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29629 LOGFMT=logging
FAULT=shape FAULT_RANK=1 FAULT_STEP=7 srun -o %x-%j-%t.out /work/blind/torchenv/bin/python /work/blind/r63/gen/ddp.py
J
  J=$(sub -o slurm-%j.out job.sbatch); waitjob $J; rm job.sbatch; }
r030() { rd 030; cat > job.sbatch <<'J'
#!/bin/bash
#SBATCH -J long-run
#SBATCH --ntasks=2
#SBATCH --time=00:01:00
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29630
STEPS=100000 srun -l /work/blind/torchenv/bin/python /work/blind/r63/gen/ddp.py
J
  J=$(sub -o slurm-%j.out job.sbatch); waitjob $J; rm job.sbatch; }
r031() { rd 031; cat > job.sbatch <<'J'
#!/bin/bash
#SBATCH -J spot-train
#SBATCH --ntasks=2
#SBATCH --time=00:10:00
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29631 LOGFMT=logging
STEPS=100000 srun /work/blind/torchenv/bin/python /work/blind/r63/gen/ddp.py
J
  J=$(sub -o slurm-%j.out job.sbatch); sleep 20; scancel --signal=TERM $J; waitjob $J; rm job.sbatch; }
r032() { rd 032; cat > job.sbatch <<'J'
#!/bin/bash
#SBATCH -J mlp-ddp
#SBATCH --ntasks=3
#SBATCH --time=00:10:00
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29632 PG_TIMEOUT=15
FAULT=spin FAULT_RANK=1 FAULT_STEP=5 srun -l --kill-on-bad-exit=1 /work/blind/torchenv/bin/python /work/blind/r63/gen/ddp.py
J
  J=$(sub -o slurm-%j.out job.sbatch); waitjob $J; rm job.sbatch; }
r033() { rd 033; rm -rf /tmp/ck033; mkdir -p /tmp/ck033; mkfifo /tmp/ck033/step5.pt; cat > job.sbatch <<'J'
#!/bin/bash
#SBATCH -J ckpt-train
#SBATCH --ntasks=2
#SBATCH --time=00:10:00
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29633 PG_TIMEOUT=20 SAVE_EVERY=5 CKPT_DIR=/tmp/ck033
srun -l /work/blind/torchenv/bin/python /work/blind/r63/gen/ddp.py
J
  J=$(sub -o slurm-%j.out job.sbatch); waitjob $J; rm job.sbatch; }
r034() { rd 034; cat > job.sbatch <<'J'
#!/bin/bash
#SBATCH -J tiny-mlp
#SBATCH --ntasks=2
#SBATCH --time=00:10:00
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29634 FAULT=long STEPS=150
srun -l /work/blind/torchenv/bin/python /work/blind/r63/gen/ddp.py
J
  J=$(sub -o slurm-%j.out job.sbatch); waitjob $J; rm job.sbatch; }
r035() { rd 035; cat > job.sbatch <<'J'
#!/bin/bash
#SBATCH -J rdzv-test
#SBATCH --ntasks=2
#SBATCH --time=00:10:00
export MASTER_ADDR=10.255.255.1 MASTER_PORT=29635 PG_TIMEOUT=20
srun -l /work/blind/torchenv/bin/python /work/blind/r63/gen/ddp.py
J
  J=$(sub -o slurm-%j.out job.sbatch); waitjob $J; rm job.sbatch; }
"$@"
