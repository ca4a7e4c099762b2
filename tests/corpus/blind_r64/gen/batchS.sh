# Slurm runs: writes a job script per run to gen/slurm/NNN.sbatch, submits it, waits, copies outputs.
source /work/blind/r64/gen/common.sh
source /work/blind/slurm64/env.sh
sub(){ # NNN sbatch-header-lines body ; returns job id in JID
  local n=$1; w $n; local f=$G/slurm/$n.sbatch
  { echo "#!/bin/bash"; echo "$2"; echo "#SBATCH --chdir=$W"; echo "export MASTER_ADDR=127.0.0.1 MASTER_PORT=$((29800+10#$n)) PYTHONUNBUFFERED=1"; echo "$3"; } > $f
  JID=$(sbatch --parsable $f); echo "$n job $JID"; }
waitj(){ while squeue -h -j $1 2>/dev/null | grep -q .; do sleep 2; done; scontrol show job $1 | grep -E "JobState|RunTime|TimeLimit" | head -3; }
P=/work/blind/torchenv/bin/python; TP=/work/blind/r64/gen/train.py
s002(){ sub 002 "#SBATCH -J pretrain-small
#SBATCH -n 2" "TORCH_CPP_LOG_LEVEL=INFO PYTHONWARNINGS=default STEPS=40 EVAL_EVERY=10 CKPT_EVERY=20 CKPT_DIR=$W/ckpt srun -l $P $TP"; waitj $JID; cp $W/slurm-$JID.out $R/002/; }
s009(){ sub 009 "#SBATCH -J longrun
#SBATCH -n 2" "STEPS=600 EVAL_EVERY=50 CKPT_EVERY=200 CKPT_DIR=$W/ckpt LOGFMT=logging_rank srun -o %x-%j-%t.out $P $TP"; waitj $JID; cp $W/*.out $R/009/; }
s012(){ sub 012 "#SBATCH -J ft-oom
#SBATCH -n 2" "FAULT=oom_leak FAULT_RANK=1 FAULT_STEP=4 STEPS=40 srun -l --kill-on-bad-exit=1 bash -c 'ulimit -v 4500000; exec $P $TP'"; waitj $JID; cp $W/slurm-$JID.out $R/012/; }
s015(){ sub 015 "#SBATCH -J ddp3
#SBATCH -n 3" "FAULT=deadlock FAULT_RANK=1 FAULT_STEP=0 TMO=10 srun -l --kill-on-bad-exit=1 $P $TP"; waitj $JID; cp $W/slurm-$JID.out $R/015/; }
s021(){ sub 021 "#SBATCH -J bert-ft
#SBATCH -n 2" "FAULT=missing_dep srun $P $TP"; waitj $JID; cp $W/slurm-$JID.out $R/021/; }
s023(){ sub 023 "#SBATCH -J shardrd
#SBATCH -n 3" "FAULT=emfile FAULT_RANK=1 FAULT_STEP=3 STEPS=30 TMO=15 LOGFMT=logging srun -o %x-%j-%t.out bash -c 'ulimit -n 256; exec $P $TP'"; waitj $JID; cp $W/*.out $R/023/; }
s028(){ $P -c "
import sys; sys.path.insert(0,'$G'); import os; os.environ['WIDTH']='32'
import torch, train; m=train.Net(32); torch.save({'model':m.state_dict(),'step':1000}, '/tmp/b64/ckpt_w32.pt')"
  sub 028 "#SBATCH -J resume
#SBATCH -n 2" "WIDTH=64 FAULT=load_mismatch FAULT_RANK=0 RESUME=/tmp/b64/ckpt_w32.pt TMO=15 srun $P $TP"; waitj $JID; cp $W/slurm-$JID.out $R/028/; }
s029(){ mkdir -p /tmp/b64/ck029; $P -c "
import sys; sys.path.insert(0,'$G'); import torch, train
for r in range(3): torch.save({'model':train.Net(32).state_dict()}, f'/tmp/b64/ck029/shard_rank{r}.pt')"
  truncate -s 900 /tmp/b64/ck029/shard_rank1.pt
  sub 029 "#SBATCH -J resume3
#SBATCH -n 3" "FAULT=ckpt_corrupt RESUME=/tmp/b64/ck029 TMO=15 srun -o %x-%j-%t.out $P $TP"; waitj $JID; cp $W/*.out $R/029/; }
s030(){ sub 030 "#SBATCH -J ckpt-async
#SBATCH -n 3" "FAULT=ckpt_hang FAULT_RANK=1 FAULT_STEP=9 CKPT_EVERY=5 CK_ALL=1 STEPS=30 TMO=15 CKPT_DIR=$W/ckpt srun -l --kill-on-bad-exit=1 $P $TP"; waitj $JID; cp $W/slurm-$JID.out $R/030/; }
s032(){ sub 032 "#SBATCH -J pretrain
#SBATCH -n 2
#SBATCH --time=1" "FAULT=hang_all FAULT_STEP=5 STEPS=100 TMO=600 LOGFMT=logging_rank srun -l $P $TP"; waitj $JID; cp $W/slurm-$JID.out $R/032/; }
s033(){ sub 033 "#SBATCH -J sweep-a
#SBATCH -n 2
#SBATCH --time=1" "STEP_SLEEP=1 STEPS=1000 TMO=60 srun $P $TP"; waitj $JID; cp $W/slurm-$JID.out $R/033/; }
s034(){ sub 034 "#SBATCH -J stream-lm
#SBATCH -n 2
#SBATCH --time=1" "FAULT=bg_thread FAULT_RANK=1 FAULT_STEP=12 STEPS=1000 STEP_SLEEP=0.2 TMO=600 srun $P $TP"; waitj $JID; cp $W/slurm-$JID.out $R/034/; }
s035(){ sub 035 "#SBATCH -J lowprio
#SBATCH -n 2" "PREEMPT_HANDLER=1 STEP_SLEEP=0.5 STEPS=1000 TMO=60 srun -l $P $TP"; sleep 20; scancel --signal=TERM $JID; waitj $JID; cp $W/slurm-$JID.out $R/035/; }
s037(){ sub 037 "#SBATCH -J ddp4
#SBATCH -n 4" "FAULT=abort FAULT_RANK=3 FAULT_STEP=13 STEPS=30 TMO=20 srun -l --kill-on-bad-exit=1 $P $TP"; waitj $JID; cp $W/slurm-$JID.out $R/037/; }
s043(){ sub 043 "#SBATCH -J eval-final
#SBATCH -n 2" "FAULT=shutdown_exc FAULT_RANK=1 STEPS=25 EVAL_EVERY=25 TMO=15 srun -l $P $TP"; waitj $JID; cp $W/slurm-$JID.out $R/043/; }
s044(){ sub 044 "#SBATCH -J ddp-ib
#SBATCH -n 3" "FAULT=ifname FAULT_RANK=1 BAD_IFNAME=ib0 TMO=15 LOGFMT=prefix srun $P $TP"; waitj $JID; cp $W/slurm-$JID.out $R/044/; }
for r in "$@"; do s$r; done
