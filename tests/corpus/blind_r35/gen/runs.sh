#!/usr/bin/env bash
# usage: runs.sh NNN   -- makes run NNN under /work/blind/r35/runs/NNN
N=$1; B=/work/blind/venv/bin; G=/work/blind/r35/gen/worker.py; R=/work/blind/r35/runs/$N
export SLURM_CONF=/work/blind/r35/slurm/slurm.conf
P=$((43000 + 20*10#$N)); export MASTER_ADDR=127.0.0.1 MASTER_PORT=$P
export CKPT=/tmp/r35ckpt/$N PIDDIR=/tmp/r35pids/$N
mkdir -p $R $CKPT; cd $R
TR="$B/torchrun --master-port $P"
t() { timeout ${TMO:-150} "$@"; }
case $N in
001) MODE=sleep_hang FR=2 FS=8 TO=20 t $TR --nproc-per-node 3 $G > console.log 2>&1 ;;
002) MODE=stuck_read FR=1 FS=10 TO=25 FMT=logging t $TR --nproc-per-node 4 --tee 3 $G > console.log 2>&1 ;;
003) MODE=deadlock FR=3 FS=6 TO=20 FMT=json t $TR --nproc-per-node 4 --log-dir $R/logs --redirects 3 $G > console.log 2>&1 ;;
004) (MODE=none STEPS=200 LOGALL=0 t $TR --nproc-per-node 3 $G > console.log 2>&1) &
     sleep 9; kill -9 $(cat $PIDDIR/rank1.pid); wait ;;
005) CG=/sys/fs/cgroup/memory/r35_005; mkdir -p $CG; echo 400M > $CG/memory.limit_in_bytes
     MODE=oom_cgroup CGDIR=$CG FR=2 FS=9 FMT=hf t $TR --nproc-per-node 3 --tee 3 $G > console.log 2>&1 ;;
006) MODE=segv FR=1 FS=7 PFX=0 t srun -J train -n 3 --label $B/python $G > console.log 2>&1 ;;
007) MODE=abort FR=3 FS=11 t $TR --nproc-per-node 4 $G > /tmp/r35_007_full.log 2>&1; tail -n 40 /tmp/r35_007_full.log > tail.txt ;;
008) MODE=dl_bus FR=1 FS=5 FMT=lightning t $TR --nproc-per-node 2 --tee 3 $G > console.log 2>&1 ;;
009) MODE=data_error FR=2 FS=9 t srun -J pretrain -n 4 --label --kill-on-bad-exit=1 $B/python $G > console.log 2>&1 ;;
010) cat > job.sbatch <<EOS
#!/bin/bash
#SBATCH -J llm-ft
#SBATCH -n 3
#SBATCH -o slurm-%j.out
export MODE=nan FR=1 FS=13 FMT=logging
srun $B/python $G
EOS
     jid=$(sbatch --parsable job.sbatch); while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done; sleep 1 ;;
011) MODE=cpu_alloc FR=2 FS=8 FMT=json t srun -J train -n 3 -o '%x-%j-%t.out' $B/python $G > /dev/null 2>&1 ;;
012) MODE=mismatch_shape FR=1 FS=6 TORCH_DISTRIBUTED_DEBUG=DETAIL SPAWN=3 TO=20 t $B/python $G > train.log 2>&1 ;;
013) MODE=early_exit FR=2 FS=10 TO=20 t $TR --nproc-per-node 3 $G > console.log 2>&1 ;;
014) RZ="$B/torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$P --rdzv-id j014 --tee 3"
     (MODE=shape FR=3 t $RZ $G > node0.log 2>&1) & sleep 1; (MODE=shape FR=3 t $RZ $G > node1.log 2>&1); wait ;;
015) RZ="$B/torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$P --rdzv-id j015 --tee 3"
     mkdir -p /tmp/r35_015; (MODE=sleep_hang FR=2 FS=9 TO=20 t $RZ $G > /tmp/r35_015/nodeA.log 2>&1) & sleep 1; (MODE=sleep_hang FR=2 FS=9 TO=20 t $RZ $G > /tmp/r35_015/nodeB.log 2>&1); wait ;;
016) MODE=missing_file FR=1 TO=25 FMT=logging t $TR --nproc-per-node 3 --log-dir $R/logs --redirects 3 $G > /dev/null 2>&1 ;;
017) mkdir -p /tmp/r35ro_src; mountpoint -q $CKPT || mount --bind -o ro /tmp/r35ro_src $CKPT; mount -o remount,bind,ro $CKPT
     MODE=ckpt_ro FR=0 FS=10 SAVE_AT=999 t srun -J ft -n 2 --label $B/python $G > console.log 2>&1; umount $CKPT ;;
018) MODE=bg_prefetch FR=1 FS=9 TO=20 t $TR --nproc-per-node 3 $G > console.log 2>&1 ;;
019) mkdir -p $CKPT; mountpoint -q $CKPT || mount -t tmpfs -o size=256k tmpfs $CKPT
     MODE=bg_ckpt FR=0 SAVE_AT=8 CKPT_NUMEL=200000 FMT=json t srun -J pretrain -n 3 --label $B/python $G > console.log 2>&1; umount $CKPT ;;
020) MODE=hub FR=0 TO=20 FMT=logging t srun -J ft -n 3 -o '%x-%j-%t.out' $B/python $G > /dev/null 2>&1 ;;
021) MODE=import_missing ALLRANKS=1 t $TR --nproc-per-node 2 --tee 3 $G > console.log 2>&1 ;;
022) MODE=emfile FR=1 FMT=json t $TR --nproc-per-node 3 --tee 3 $G > console.log 2>&1 ;;
023) mkdir -p $CKPT; $B/python -c "import torch; torch.save({'model': {'w': torch.zeros(50000)}}, '$CKPT/step_000400.pt')"; truncate -s 70000 $CKPT/step_000400.pt
     MODE=ckpt_corrupt SPAWN=2 t $B/python $G > train.log 2>&1 ;;
024) mkdir -p $CKPT; $B/python -c "
import torch, torch.nn as nn
m = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1), nn.Dropout())
torch.save({'model': m.state_dict()}, '$CKPT/step_000400.pt')"
     MODE=ckpt_keys t $TR --nproc-per-node 2 --log-dir $R/logs --redirects 3 $G > console.log 2>&1 ;;
025) MODE=dtype FR=2 FS=8 FMT=hf t srun -J sft -n 3 --label $B/python $G > console.log 2>&1 ;;
026) MODE=diverge FS=12 STEPS=60 LOGALL=0 FMT=logging LOGEVERY=1 t $TR --nproc-per-node 2 $G > console.log 2>&1 ;;
027) MODE=sleep_hang FR=1 FS=10 TO=300 t timeout -s TERM 35 $TR --nproc-per-node 3 --tee 3 $G > console.log 2>&1 ;;
028) cat > job.sbatch <<EOS
#!/bin/bash
#SBATCH -J pretrain-7b
#SBATCH -n 2
#SBATCH --time=1
#SBATCH -o slurm-%j.out
export MODE=sleep_hang FR=0 FS=15 TO=600 FMT=logging
srun --label $B/python $G
EOS
     jid=$(sbatch --parsable job.sbatch); while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 3; done; sleep 1 ;;
029) (MODE=sleep_hang FR=2 FS=8 TO=600 FMT=json t srun -J train-29 -n 3 $B/python $G > console.log 2>&1) &
     sleep 25; jid=$(squeue -h -n train-29 -o %i | head -1); scancel $jid; wait ;;
030) $B/python -c "import socket,time; s=socket.socket(); s.bind(('0.0.0.0',$P)); s.listen(); time.sleep(40)" & sleep 1
     MODE=none t $TR --nproc-per-node 2 $G > console.log 2>&1; kill %1 2>/dev/null; wait ;;
031) MODE=none t $B/torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$P --rdzv-id j031 --rdzv-conf join_timeout=20 $G > console.log 2>&1 ;;
032) MODE=dl_kill FR=2 FS=6 t $TR --nproc-per-node 3 --tee 3 $G > /tmp/r35_032_full.log 2>&1; grep -iE "error|exception|killed|signal|fail" /tmp/r35_032_full.log > grep.txt ;;
033) MODE=healthy_warn STEPS=24 t $TR --nproc-per-node 3 $G > console.log 2>&1 ;;
034) MODE=healthy_retry STEPS=20 t srun -J train -n 3 --label $B/python $G > console.log 2>&1 ;;
035) MODE=noisy STEPS=30 FMT=json SPAWN=3 t $B/python $G > train.log 2>&1 ;;
036) MODE=spike_recover FS=8 STEPS=24 FMT=lightning t $TR --nproc-per-node 2 --tee 3 $G > console.log 2>&1 ;;
037) RZ="$B/torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$P --rdzv-id j037 --tee 3"
     (MODE=none FMT=hf STEPS=20 t $RZ $G > node0.log 2>&1) & sleep 1; (MODE=none FMT=hf STEPS=20 t $RZ $G > node1.log 2>&1); wait ;;
038) MODE=bg_metrics STEPS=24 t $TR --nproc-per-node 3 --tee 3 $G > console.log 2>&1 ;;
039) cat > job.sbatch <<EOS
#!/bin/bash
#SBATCH -J llm-ft
#SBATCH -n 2
#SBATCH -o slurm-%j.out
export MODE=healthy_warn STEPS=20 FMT=logging CKPT_NUMEL=3000000
srun --label $B/python $G
EOS
     jid=$(sbatch --parsable job.sbatch); while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done; sleep 1 ;;
040) MODE=healthy_exc STEPS=20 FMT=hf t srun -J sft -n 2 -o '%x-%j-%t.out' $B/python $G > /dev/null 2>&1 ;;
esac
echo "run $N done rc=$?"
