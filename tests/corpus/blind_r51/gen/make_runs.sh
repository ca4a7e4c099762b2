#!/bin/bash
# Regenerate runs: bash make_runs.sh 001 002 ...   (needs root for cgroup / ro mount; Slurm from /work/blind/slurm51)
set -u
G=$(cd "$(dirname "$0")" && pwd); S=$(dirname "$G")/runs
PY=/work/blind/venv/bin/python; TR=/work/blind/venv/bin/torchrun; T=$G/train.py
source /work/blind/slurm51/env.sh
export PYTHONPATH= OMP_NUM_THREADS=1 GLOO_SOCKET_IFNAME=lo
tr1() { # port nproc args...  single node torchrun
  local port=$1 n=$2; shift 2
  $TR --nnodes=1 --nproc-per-node=$n --master-addr=127.0.0.1 --master-port=$port "$@"
}
run() {
 local id=$1 d=$S/$1; rm -rf $d; mkdir -p $d; cd $d; export CKPT_DIR=/tmp/r51ck_$id; rm -rf $CKPT_DIR; mkdir -p $CKPT_DIR
 case $id in
 001) SCEN=silent_sleep GLOO_TMO=30 tr1 59001 4 --log-dir=$d/tlogs --tee=3 $T > console.log 2>&1 ;;
 002) cg=/sys/fs/cgroup/memory/r51_002; mkdir -p $cg; echo 2500M > $cg/memory.limit_in_bytes; echo 0 > $cg/memory.swappiness 2>/dev/null
      bash -c "echo \$\$ > $cg/cgroup.procs; SCEN=oom_cg STYLE=print STEPS=10 exec $TR --nnodes=1 --nproc-per-node=4 --master-addr=127.0.0.1 --master-port=59002 $T" > console.log 2>&1
      cat $cg/memory.oom_control > /tmp/r51_002_oomctl; rmdir $cg ;;
 003) SCEN=early_exit GLOO_TMO=30 tr1 59003 4 --tee=3 $T > console.log 2>&1 ;;
 004) export SCEN=data_err_two STYLE=trainer
      $TR --nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:59004 --rdzv-id=j004 --node-rank=0 --tee=3 $T > node0.log 2>&1 &
      $TR --nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:59004 --rdzv-id=j004 --node-rank=1 --tee=3 $T > node1.log 2>&1; wait; unset SCEN STYLE ;;
 005) SCEN=load_mismatch MASTER_ADDR=127.0.0.1 MASTER_PORT=59005 srun -n 4 --label --kill-on-bad-exit=1 $PY $T > console.log 2>&1 ;;
 006) mkdir -p /tmp/r51ro_006 $CKPT_DIR/ro; mount --bind /tmp/r51ro_006 $CKPT_DIR/ro && mount -o remount,ro,bind $CKPT_DIR/ro
      cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J pretrain-small
#SBATCH -n 4
#SBATCH --time=1
#SBATCH -o $d/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=59006 SCEN=nonexit_thread GLOO_TMO=300 STEPS=40 CKPT_DIR=$CKPT_DIR/ro OMP_NUM_THREADS=1
echo "job \$SLURM_JOB_ID on \$SLURM_NODELIST"
srun --label $PY $T
EOS
      jid=$(sbatch --parsable job.sh); while squeue -h -j $jid | grep -q .; do sleep 3; done; sleep 2; umount $CKPT_DIR/ro; rm job.sh ;;
 007) rm -f $CKPT_DIR/step_5.pt; ln -s /dev/full $CKPT_DIR/step_5.pt
      cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J pretrain-small
#SBATCH -n 6
#SBATCH -o $d/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=59007 SCEN=diskfull HOLD=1 GLOO_TMO=300 STEPS=40 CKPT_DIR=$CKPT_DIR STYLE=print PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
srun $PY $T
EOS
      jid=$(sbatch --parsable job.sh); sleep 45; scancel $jid; while squeue -h -j $jid | grep -q .; do sleep 2; done; sleep 2; rm job.sh ;;
 008) SCEN=dtype STYLE=nopfx tr1 59008 4 $T > console.log 2>&1 ;;
 009) SCEN=nan_late STYLE=print GLOO_TMO=20 tr1 59009 4 $T > console.log 2>&1 ;;
 010) SCEN=thread_err STYLE=json GLOO_TMO=30 tr1 59010 4 --log-dir=$d/tlogs --tee=3 $T > console.log 2>&1 ;;
 011) SCEN=dl_error MASTER_ADDR=127.0.0.1 MASTER_PORT=59011 srun -n 4 --label $PY $T > console.log 2>&1 ;;
 012) SCEN=dl_killed STYLE=trainer tr1 59012 4 --tee=3 $T > console.log 2>&1 ;;
 013) SCEN=restart_ckpt tr1 59013 4 --max-restarts=1 --tee=3 $T > console.log 2>&1 ;;
 014) SCEN=mismatch TORCH_DISTRIBUTED_DEBUG=DETAIL GLOO_TMO=30 tr1 59014 4 --tee=3 $T > console.log 2>&1 ;;
 015) $TR --nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:59015 --rdzv-id=j015 --rdzv-conf=join_timeout=40 --node-rank=0 $T > node0.log 2>&1 &
      sleep 2; $TR --nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.2:59115 --rdzv-id=j015 --rdzv-conf=join_timeout=40 --node-rank=1 $T > node1.log 2>&1; wait ;;
 016) export SCEN=deadlock GLOO_TMO=30
      $TR --nnodes=2 --nproc-per-node=3 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:59016 --rdzv-id=j016 --tee=3 $T > node0.log 2>&1 &
      $TR --nnodes=2 --nproc-per-node=3 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:59016 --rdzv-id=j016 --tee=3 $T > node1.log 2>&1; wait; unset SCEN GLOO_TMO ;;
 017) rm -f /tmp/r51_pid_rank*; SCEN=watch_kill STEPS=30 STEP_SLEEP=0.5 tr1 59017 6 --tee=3 $T > console.log 2>&1 &
      for i in $(seq 60); do sleep 1; [ -s /tmp/r51_pid_rank4 ] && break; done; sleep 4; kill -9 $(cat /tmp/r51_pid_rank4); wait ;;
 018) SCEN=segv MASTER_ADDR=127.0.0.1 MASTER_PORT=59018 srun -n 4 --kill-on-bad-exit=1 -o $d/out_%t.log $PY $T > console.log 2>&1 ;;
 019) SCEN=shape LAUNCH=spawn NPROC=4 MASTER_PORT=59019 $PY $T > console.log 2>&1 ;;
 020) SCEN=emfile tr1 59020 4 --tee=3 $T > console.log 2>&1 ;;
 021) SCEN=eval_err STYLE=tqdm tr1 59021 4 $T > console.log 2>&1 ;;
 022) cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J pretrain-small
#SBATCH -n 4
#SBATCH --time=1
#SBATCH -o $d/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=59022 SCEN=timelimit STEPS=40 OMP_NUM_THREADS=1
srun --label $PY $T
EOS
      jid=$(sbatch --parsable job.sh); while squeue -h -j $jid | grep -q .; do sleep 3; done; sleep 2; rm job.sh ;;
 023) $PY -c "import socket,time; s=socket.socket(); s.bind(('0.0.0.0',59023)); s.listen(); time.sleep(60)" & hp=$!; sleep 1
      tr1 59023 4 $T > console.log 2>&1; kill $hp ;;
 024) SCEN=restart_ok tr1 59024 4 --max-restarts=1 --tee=3 $T > console.log 2>&1 ;;
 025) SCEN=retry STYLE=trainer MASTER_ADDR=127.0.0.1 MASTER_PORT=59025 srun -n 4 --label $PY $T > console.log 2>&1 ;;
 026) SCEN=warnings tr1 59026 4 --log-dir=$d/tlogs --redirects=3 $T > console.log 2>&1 ;;
 027) export SCEN=straggler
      $TR --nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:59027 --rdzv-id=j027 --tee=3 $T > node0.log 2>&1 &
      $TR --nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:59027 --rdzv-id=j027 --tee=3 $T > node1.log 2>&1; wait; unset SCEN ;;
 028) export SCEN=slow
      $TR --nnodes=1:2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:59028 --rdzv-id=j028 --rdzv-conf=last_call_timeout=15 --tee=3 $T > node0.log 2>&1 &
      sleep 6; $TR --nnodes=1:2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:59028 --rdzv-id=j028 --rdzv-conf=last_call_timeout=15 --tee=3 $T > node1.log 2>&1; wait; unset SCEN ;;
 029) cat > job.sh <<EOS
#!/bin/bash
#SBATCH -J pretrain-small
#SBATCH -n 4
#SBATCH -o $d/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=59029 SCEN=overflow_ok OMP_NUM_THREADS=1
srun $PY $T
EOS
      jid=$(sbatch --parsable job.sh); while squeue -h -j $jid | grep -q .; do sleep 3; done; sleep 2; rm job.sh ;;
 030) SCEN=spike_ok STYLE=json LAUNCH=spawn NPROC=4 MASTER_PORT=59030 $PY $T > console.log 2>&1 ;;
 031) SCEN=ckpt_ok tr1 59031 4 --tee=3 $T > console.log 2>&1 ;;
 034) SCEN=ckpt_ok2 tr1 59034 4 --tee=3 $T > console.log 2>&1 ;;
 032) SCEN=dl_ok STYLE=tqdm tr1 59032 4 $T > console.log 2>&1 ;;
 033) SCEN=slow STYLE=print PYTHONUNBUFFERED=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=59033 srun -n 5 -o $d/out_%t.log $PY $T > console.log 2>&1 ;;
 esac
 echo "run $id done rc=$?"
 [ -s $d/console.log ] || rm -f $d/console.log
}
for id in "$@"; do run $id; done
