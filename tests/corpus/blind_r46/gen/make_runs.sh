#!/usr/bin/env bash
# Regenerates the r46 runs: bash make_runs.sh 001 002 ... (each run writes /work/blind/r46/set/runs/NNN/)
# Needs root (cgroup v1 memory, tmpfs mounts) and the private Slurm (bash /work/blind/slurm46/start.sh).
set -u
G=$(cd "$(dirname "$0")" && pwd)
R=/work/blind/r46/set/runs
PY=/work/blind/venv/bin/python
TR=/work/blind/venv/bin/torchrun
ACC=/work/blind/venv/bin/accelerate
source /work/blind/slurm46/env.sh
export PATH=/work/blind/venv/bin:$PATH OMP_NUM_THREADS=1
T="$PY $G/train.py"
TS="$G/train.py"
d() { rm -rf "$R/$1"; mkdir -p "$R/$1"; cd "$R/$1"; }
sbwait() { while squeue -h -j "$1" 2>/dev/null | grep -q .; do sleep 3; done; }

r001() { d 001; $TR --nproc-per-node 4 --master-port 55101 --log-dir "$R/001/tlogs" --tee 3 $TS --scen exc --frank 2 --fstep 1400 --steps 2500 > console.log 2>&1; }
r002() { d 002; $TR --nproc-per-node 4 --master-port 55102 --log-dir "$R/002/tlogs" --tee 3 $TS --style logging --noise valexc --steps 2500 > console.log 2>&1; }
r003() { d 003; $TR --nproc-per-node 4 --master-port 55103 $TS --style json --noise gradskip --steps 2500 > console.log 2>&1; }
r004() { d 004; $TR --nproc-per-node 4 --master-port 55104 $TS --style logging --scen hang --frank 1 --fstep 1200 --steps 2500 --timeout 30 > console.log 2>&1; }
r005() { d 005; mkdir -p /mnt/r46small; mountpoint -q /mnt/r46small || mount -t tmpfs -o size=1200k tmpfs /mnt/r46small; rm -rf /mnt/r46small/*
  $TR --nproc-per-node 2 --master-port 55105 $TS --style json --hidden 256 --ckpt-every 400 --ckpt-dir /mnt/r46small/ckpt --steps 2500 > console.log 2>&1; umount /mnt/r46small; }
r006() { d 006; $T --spawn 4 --port 55106 --style raw --steps 1500 > console.log 2>&1; }
r007() { d 007; CG=/sys/fs/cgroup/memory/r46oom; rmdir $CG 2>/dev/null; mkdir -p $CG; echo 600M > $CG/memory.limit_in_bytes
  $TR --nproc-per-node 4 --master-port 55107 $TS --style json --scen oom --frank 3 --fstep 1300 --steps 2500 --cgroup $CG > console.log 2>&1
  cat $CG/memory.oom_control > /tmp/r46_007_oom_control.txt; rmdir $CG; }
r008() { d 008; $TR --nproc-per-node 2 --master-port 55108 --max-restarts 1 --log-dir "$R/008/tlogs" --tee 3 $TS --scen elastic --frank 1 --fstep 800 --steps 2000 > console.log 2>&1; }
r009() { d 009; rm -rf /tmp/r46ck009; cat > job.sbatch <<EOS
#!/bin/bash
#SBATCH -J pretrain-small
#SBATCH -n 2
#SBATCH --time=4
#SBATCH --signal=USR1@170
#SBATCH -o $R/009/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=55109 OMP_NUM_THREADS=1
srun --label $T --noise sig --sleep 0.05 --steps 6000 --ckpt-dir /tmp/r46ck009
echo "job script done rc=\$?"
EOS
  J=$(sbatch --parsable job.sbatch); sbwait $J; rm job.sbatch; }
r010() { d 010; MASTER_ADDR=127.0.0.1 MASTER_PORT=55110 srun -n 4 --label $T --scen early --frank 3 --fstep 1500 --steps 2500 > console.log 2>&1; }
r011() { d 011; $PY $G/lit.py --epochs 8 > console.log 2>&1; }
r012() { d 012; $PY $G/lit.py --mode valshape --frank 1 --fepoch 6 --epochs 8 > console.log 2>&1; }
r013() { d 013; MASTER_ADDR=127.0.0.1 MASTER_PORT=55113 srun -n 3 --label $T --noise storeretry,flakyread --steps 2000 > console.log 2>&1; }
r014() { d 014; $TR --nproc-per-node 4 --master-port 55114 --log-dir "$R/014/tlogs" -r 3 $TS --scen mismatch --frank 2 --fstep 1300 --steps 2500 > console.log 2>&1; }
r015() { d 015; PYTHONDEVMODE=1 PYTHONWARNINGS=default MASTER_ADDR=127.0.0.1 MASTER_PORT=55115 srun -n 2 -o "$R/015/task-%t.out" $T --noise warn,subproc --style logging --steps 2500; }
r016() { d 016; cat > job.sbatch <<EOS
#!/bin/bash
#SBATCH -J sft-run
#SBATCH -n 4
#SBATCH --time=1
#SBATCH -o $R/016/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=55116 OMP_NUM_THREADS=1
srun --label $T --style logging --sleep 0.02 --steps 6000
EOS
  J=$(sbatch --parsable job.sbatch); sbwait $J; rm job.sbatch; }
r017() { d 017; cat > job.sbatch <<EOS
#!/bin/bash
#SBATCH -J pretrain-long
#SBATCH -n 4
#SBATCH --time=10
#SBATCH -o $R/017/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=55117 OMP_NUM_THREADS=1
srun --label $T --style logging --noise valexc,gradskip,corrupt,subproc --steps 6000
EOS
  J=$(sbatch --parsable job.sbatch); sbwait $J; rm job.sbatch; }
r018() { d 018; MASTER_ADDR=127.0.0.1 MASTER_PORT=55118 srun -n 3 -o "$R/018/out-%t.txt" $T --scen bgthread --frank 1 --fstep 1100 --steps 2500 --style logging; }
r019() { d 019; $TR --nproc-per-node 2 --master-port 55119 $TS --style logging --noise slowdump --steps 2500 > console.log 2>&1; }
r020() { d 020; $T --spawn 2 --port 55120 --scen segv --frank 1 --fstep 1700 --steps 2500 > console.log 2>&1; }
r021() { d 021; $PY -W default $G/train.py --spawn 3 --port 55121 --noise corrupt --steps 2500 > console.log 2>&1; }
r022() { d 022; mkdir -p /mnt/r46ro; mountpoint -q /mnt/r46ro || mount -t tmpfs -o ro,size=1m tmpfs /mnt/r46ro
  $T --spawn 4 --port 55122 --ckpt-every 1000 --ckpt-dir /mnt/r46ro/run7 --steps 2500 > console.log 2>&1; umount /mnt/r46ro; }
r023() { d 023; cat > job.sbatch <<EOS
#!/bin/bash
#SBATCH -J eval-sweep
#SBATCH -n 2
#SBATCH --time=5
#SBATCH -o $R/023/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=55123 OMP_NUM_THREADS=1
nvidia-smi -L || echo "no GPU tools on this node"
srun --label $T --noise subproc,flakyread --steps 2500
EOS
  J=$(sbatch --parsable job.sbatch); sbwait $J; rm job.sbatch; }
r024() { d 024; $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:55124 --rdzv-id job-4471 --rdzv-conf join_timeout=40 $TS --steps 2000 > console.log 2>&1; }
r025() { d 025; for n in 0 1; do $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:55125 --rdzv-id job-5512 --log-dir "$R/025/node$n" --tee 3 $TS --style tqdm --steps 1500 > "console_node$n.log" 2>&1 & done; wait; }
r026() { d 026; $TR --nproc-per-node 2 --master-port 55126 --log-dir "$R/026/tlogs" --tee 3 $TS --scen dlkill --frank 0 --fstep 20000 --steps 2500 > console.log 2>&1; }
r027() { d 027; $TR --nproc-per-node 2 --master-port 55127 $TS --noise bench --steps 2000 > console.log 2>&1; }
r028() { d 028; cat > job.sbatch <<EOS
#!/bin/bash
#SBATCH -J mt-train
#SBATCH -n 4
#SBATCH --time=5
#SBATCH -o $R/028/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=55128 OMP_NUM_THREADS=1
srun --label $T --style logging --scen nan --frank 2 --fstep 1600 --steps 2500
EOS
  J=$(sbatch --parsable job.sbatch); sbwait $J; rm job.sbatch; }
r029() { d 029; $TR --nproc-per-node 2 --master-port 55129 --tee 3 --log-dir "$R/029/tlogs" $G/hf.py --steps 600 --out /tmp/r46_hf029 > console.log 2>&1; rm -rf /tmp/r46_hf029; }
r030() { d 030; rm -rf /tmp/r46_hf030; $ACC launch --cpu --multi_gpu --num_processes 2 --main_process_port 55130 $G/hf.py --mode loadmismatch --steps 600 --out /tmp/r46_hf030 > console.log 2>&1; }
r031() { d 031; $PY -c "import socket,time;s=socket.socket();s.bind(('0.0.0.0',55131));s.listen();time.sleep(90)" & H=$!; sleep 2
  $TR --nproc-per-node 4 --master-port 55131 $TS --steps 2000 > console.log 2>&1; kill $H; }
r032() { d 032; rm -rf /tmp/r46ck032; cat > job.sbatch <<EOS
#!/bin/bash
#SBATCH -J pretrain-resumable
#SBATCH -n 2
#SBATCH --time=3
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --signal=USR1@120
#SBATCH -o $R/032/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=55132 OMP_NUM_THREADS=1
echo "start: restart count \${SLURM_RESTART_COUNT:-0}"
srun --label $T --noise sig --requeue --sleep 0.04 --steps 2600 --ckpt-dir /tmp/r46ck032
echo "job script done rc=\$?"
EOS
  J=$(sbatch --parsable job.sbatch); sleep 10; while scontrol show job $J | grep -qE "JobState=(PENDING|RUNNING|REQUEUED|COMPLETING)"; do sleep 5; done; scontrol show job $J > /tmp/r46_032_scontrol.txt; rm job.sbatch; }
r033() { d 033; cat > job.sbatch <<EOS
#!/bin/bash
#SBATCH -J pretrain-7b-ablation
#SBATCH -n 2
#SBATCH --time=10
#SBATCH -o $R/033/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=55133 OMP_NUM_THREADS=1
srun $T --style json --sleep 0.02 --steps 8000
EOS
  J=$(sbatch --parsable job.sbatch); sleep 75; scancel $J; sbwait $J; rm job.sbatch; }

for n in "$@"; do echo "== $n $(date +%T)"; "r$n"; echo "== $n done rc=$? $(date +%T)"; done
