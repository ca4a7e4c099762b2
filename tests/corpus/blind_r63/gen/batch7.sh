source /work/blind/r63/gen/common.sh
source /work/blind/slurm63/env.sh
waitjob() { while squeue -h -j $1 2>/dev/null | grep -q .; do sleep 2; done; sleep 1; }
r058() { rd 058; cat > job.sbatch <<'J'
#!/bin/bash
#SBATCH -J mlp-long
#SBATCH --ntasks=3
#SBATCH --time=00:01:00
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29658 PG_TIMEOUT=3600 LOGFMT=json
FAULT=spin FAULT_RANK=1 FAULT_STEP=12 STEPS=1000 srun /work/blind/torchenv/bin/python /work/blind/r63/gen/ddp2.py
J
  J=$(sbatch --parsable -o slurm-%j.out job.sbatch); waitjob $J; rm job.sbatch; }
r059() { rd 059; cat > job.sbatch <<'J'
#!/bin/bash
#SBATCH -J mlp-metrics
#SBATCH --ntasks=2
#SBATCH --time=00:01:00
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29659 PG_TIMEOUT=3600
FAULT=bg_thread FAULT_RANK=0 FAULT_STEP=5 STEPS=1000 srun -l /work/blind/torchenv/bin/python /work/blind/r63/gen/ddp2.py
J
  J=$(sbatch --parsable -o slurm-%j.out job.sbatch); waitjob $J; rm job.sbatch; }
r060() { rd 060; f=$(ls -d /tmp/hf008/checkpoint-* | tail -1); python3 - "$f/model.safetensors" <<'P'
import sys; p=sys.argv[1]; d=open(p,'rb').read(); open(p,'wb').write(d[:len(d)//3])
P
  MODE=ok MAX_STEPS=16 OUT=/tmp/hf008 RESUME=$f $TR --nproc-per-node 2 --master-port 29660 $G/hf_trainer.py > train.log 2>&1; }
r061() { rd 061; cat > job.sbatch <<'J'
#!/bin/bash
#SBATCH -J lit-reg
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=2
#SBATCH --time=00:10:00
MODE=ok EPOCHS=100000 srun /work/blind/torchenv/bin/python /work/blind/r63/gen/lit.py
J
  J=$(sbatch --parsable -o slurm-%j.out job.sbatch); sleep 30; scancel --signal=TERM $J; waitjob $J; rm job.sbatch; }
r062() { rd 062; FAULT=aux_head FAULT_RANK=1 FAULT_STEP=7 LOGFMT=logging $TR --nproc-per-node 3 --master-port 29662 $G/ddp3.py > console.log 2>&1; }
r063() { rd 063; rm -rf /tmp/ck063; mkdir -p /tmp/ck063; mkfifo /tmp/ck063/step10.pt; FAULT=ckpt_async_timeout SAVE_EVERY=10 CKPT_DIR=/tmp/ck063 PG_TIMEOUT=30 $TR --nproc-per-node 3 --master-port 29663 $G/ddp3.py > console.log 2>&1; }
r064() { rd 064; FAULT=early_exit FAULT_RANK=2 FAULT_STEP=8 PG_TIMEOUT=30 $TR --nproc-per-node 4 --master-port 29664 $G/ddp3.py > console.log 2>&1; }
"$@"
