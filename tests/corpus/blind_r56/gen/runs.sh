#!/usr/bin/env bash
# Make r56 runs: bash runs.sh NNN [NNN...]. Each writes only into ../runs/NNN (scratch in /work/blind/r56/work).
T=/work/blind/torchenv/bin
G=/work/blind/r56/set/gen
R=/work/blind/r56/set/runs
W=/work/blind/r56/work
export SLURM_CONF=/var/tmp/blind56-slurm/slurm.conf
CG=/sys/fs/cgroup/memory/process_api/30bb66d13212b2b7589d5c3ea4bc60f0/r56oom
TR="$T/torchrun"
PY="$T/python"
mkdir -p $W

cg() { mkdir -p $CG; echo 300M > $CG/memory.limit_in_bytes; }
sb() { # sbatch --wait with the job script $1 and extra args; output into run dir
  local d=$1; shift; (cd $d && sbatch --wait -o "slurm-%j.out" "$@" >/dev/null 2>&1); }

r001() { cd $R/001 && $TR --nproc-per-node 4 --master-port 29701 $G/train.py --mode sleep --bad-rank 2 --at 5 > console.log 2>&1; }
r002() { cd $R/002 && $TR --nproc-per-node 4 --master-port 29702 --log-dir logs --redirects 3 --tee 3 $G/train.py --mode lock --bad-rank 1 --at 4 --fmt pipe > console.log 2>&1; }
r003() { mkfifo $W/feed.fifo 2>/dev/null; cd $R/003 && $PY $G/spawn.py 3 29703 --mode fifo --fifo $W/feed.fifo --bad-rank 0 --at 3 --fmt none > console.log 2>&1; }
r004() { cd $R/004 && sb $R/004 -n 4 -J r56-004 $G/job_srun.sh --kill-on-bad-exit=1 -- --mode loop_hook --bad-rank 3 --at 4 --fmt logging; }
r005() { cg; cd $R/005 && $TR --nproc-per-node 4 --master-port 29705 --log-dir logs --redirects 3 $G/train.py --mode cgroup_oom --cgroup $CG --bad-rank 3 --at 4 > console.log 2>&1; }
r006() { cg; dmesg -C 2>/dev/null; cd $R/006 && sb $R/006 -n 4 -J r56-006 $G/job_srun.sh -- --mode cgroup_oom --cgroup $CG --bad-rank 1 --at 3 --fmt pipe; dmesg | tail -25 > dmesg.txt; }
r007() { cd $R/007 && ( $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29707 $G/train.py --mode shape --bad-rank 3 --at 5 --ddp > node1.log 2>&1 & $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29707 $G/train.py --mode shape --bad-rank 3 --at 5 --ddp > node0.log 2>&1; wait ); }
r008() { cd $R/008 && $TR --nproc-per-node 4 --master-port 29708 $G/train.py --mode worker_segv --bad-rank 2 --at 5 --workers 2 > console.log 2>&1; }
r009() { cd $R/009 && $PY $G/spawn.py 2 29709 --mode worker_bus --bad-rank 1 --at 4 --workers 2 --fmt pipe > console.log 2>&1; }
r010() { cd $R/010 && sb $R/010 -n 4 -J r56-010 $G/job_srun.sh -- --mode worker_sigkill --bad-rank 0 --at 4 --workers 1 --fmt bracket; }
r011() { printf '{"x": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8], "y": 1}\n{"x": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8], "y": 0}\n{"x": [0.3, 0.1, "nan", 0.2, 0.5, 0.6, 0.7, 0.8], "y": 1\n' > $W/train_part2.jsonl
         cd $R/011 && sb $R/011 -n 4 -J r56-011 $G/job_srun.sh --kill-on-bad-exit=1 -- --mode data_error --data $W/train_part2.jsonl --bad-rank 2 --at 4 --fmt logging; }
r012() { mkdir -p $W/ck012 && $PY $G/mkckpt.py $W/ck012/shard_rank{rank}.pt 4 16 && $PY $G/mkckpt.py $W/ck012/shard_rank1.pt 1 32 && \
         cd $R/012 && $TR --nproc-per-node 4 --master-port 29712 $G/train.py --resume "$W/ck012/shard_rank{rank}.pt" --mode healthy > console.log 2>&1; }
r013() { cd $R/013 && $TR --nproc-per-node 3 --master-port 29713 $G/train.py --mode nan --bad-rank 0 --at 5 --workers 2 --fmt pipe > console.log 2>&1; }
r014() { mkdir -p $W/full014 && (mountpoint -q $W/full014 || mount -t tmpfs -o size=1m tmpfs $W/full014); rm -f $W/full014/*
         cd $R/014 && sb $R/014 -n 4 -t 1 -J r56-014 $G/job_srun.sh -- --mode async_disk_full --ckpt $W/full014/step.pt --bad-rank 0 --at 3 --timeout 600 --steps 8; umount $W/full014; }
r015() { mkdir -p $W/shards015; cd $R/015 && (cd $R/015 && sbatch -o "slurm-%j.out" -n 4 -J r56-015 $G/job_srun.sh -- --mode thread_data_error --data $W/shards015 --bad-rank 2 --at 4 --timeout 600 --fmt pipe > jobid.txt 2>&1); \
         sleep 45; scancel $(awk '{print $4}' jobid.txt); sleep 10; rm jobid.txt; }
r016() { mkdir -p $W/shards016; cd $R/016 && $TR --nproc-per-node 4 --master-port 29716 $G/train.py --mode thread_data_error --data $W/shards016 --bad-rank 1 --at 5 > console.log 2>&1; }
r017() { cd $R/017 && TORCH_DISTRIBUTED_DEBUG=DETAIL $TR --nproc-per-node 4 --master-port 29717 $G/train.py --mode wrong_collective --bad-rank 3 --at 4 > console.log 2>&1; }
r018() { cd $R/018 && $TR --nproc-per-node 3 --master-port 29718 $G/train.py --mode wrong_size --bad-rank 1 --at 4 --fmt pipe > console.log 2>&1; }
r019() { cd $R/019 && $TR --nproc-per-node 4 --master-port 29719 --log-dir logs --redirects 3 $G/train.py --mode early_exit --bad-rank 2 --at 6 --fmt logging > console.log 2>&1; }
r020() { rm -rf $W/ck020; mkdir -p $W/ck020 && $PY $G/mkckpt.py $W/ck020/latest.pt 4 16 && head -c 900 $W/ck020/latest.pt > $W/ck020/t && mv $W/ck020/t $W/ck020/latest_rank1.pt
         cp $W/ck020/latest.pt $W/ck020/latest_rank0.pt; cp $W/ck020/latest.pt $W/ck020/latest_rank2.pt; cp $W/ck020/latest.pt $W/ck020/latest_rank3.pt
         cd $R/020 && $TR --nproc-per-node 4 --max-restarts 1 --master-port 29720 $G/train.py --mode worker_sigkill --bad-rank 3 --at 4 --workers 1 \
           --mode2 healthy --resume-on-restart "$W/ck020/latest_rank{rank}.pt" > console.log 2>&1; }
r021() { rm -rf $W/ck021; mkdir -p $W/ck021 && $PY $G/mkckpt.py $W/ck021/last.pt 4 64
         cd $R/021 && $TR --nproc-per-node 3 --max-restarts 1 --master-port 29721 $G/train.py --mode sleep --bad-rank 2 --at 4 \
           --mode2 healthy --resume-on-restart $W/ck021/last.pt --fmt pipe > console.log 2>&1; }
r022() { cd $R/022 && $TR --nproc-per-node 2 --master-port 29722 $G/train.py --mode cpu_alloc --bad-rank 1 --at 3 --fmt logging > console.log 2>&1; }
r023() { printf '{"x": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8], "y": 1}\n{"x": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8], "y": 0}\n{"x": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8], "label": 1}\n' > $W/val023.jsonl
         cd $R/023 && $T/accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --mixed_precision no --dynamo_backend no --main_process_port 29723 $G/train.py --mode data_error --data $W/val023.jsonl --bad-rank 1 --at 4 > console.log 2>&1; }
r024() { mkdir -p $W/ck024 && $PY $G/mkckpt.py $W/ck024/ckpt_step2000.pt 4 16 && truncate -s 1500 $W/ck024/ckpt_step2000.pt
         cd $R/024 && $TR --nproc-per-node 4 --master-port 29724 $G/train.py --resume $W/ck024/ckpt_step2000.pt --fmt logging > console.log 2>&1; }
r025() { cd $R/025 && sb $R/025 -n 3 -J r56-025 $G/job_srun.sh --kill-on-bad-exit=1 -- --mode nan --bad-rank 2 --at 5 --fmt bracket; }
r026() { cd $R/026 && $TR --nproc-per-node 4 --master-port 29726 $G/train.py --mode import_error > console.log 2>&1; }
r027() { $PY -c "import socket,time; s=socket.socket(); s.bind(('0.0.0.0',29727)); s.listen(); time.sleep(90)" & local hp=$!; sleep 1
         cd $R/027 && $TR --nproc-per-node 2 --master-port 29727 $G/train.py > console.log 2>&1; kill $hp; }
r028() { cd $R/028 && $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29728 --rdzv-id job028 --rdzv-conf join_timeout=25 $G/train.py > console.log 2>&1; }
r029() { mkdir -p $W/full029 && (mountpoint -q $W/full029 || mount -t tmpfs -o size=1m tmpfs $W/full029); rm -f $W/full029/*
         cd $R/029 && $TR --nproc-per-node 4 --master-port 29729 $G/train.py --mode disk_full --ckpt $W/full029/ckpt.pt --bad-rank 0 --at 4 --fmt pipe > console.log 2>&1; umount $W/full029; }
r030() { mkdir -p $W/ro030 && (mountpoint -q $W/ro030 || mount -t tmpfs -o ro,size=1m tmpfs $W/ro030)
         cd $R/030 && sb $R/030 -n 2 -J r56-030 $G/job_srun.sh --kill-on-bad-exit=1 -- --mode ro_ckpt --ckpt $W/ro030/model_step5.pt --bad-rank 0 --at 4; umount $W/ro030; }
r031() { cd $R/031 && $PY $G/spawn.py 4 29731 --mode dtype --bad-rank 1 --at 3 > console.log 2>&1; }
r032() { cd $R/032 && HF_ENDPOINT=http://127.0.0.1:9 HF_HOME=$W/hfhome032 $TR --nproc-per-node 2 --master-port 29732 $G/hub.py > console.log 2>&1; }
r033() { cd $R/033 && bash -c "ulimit -n 400; exec $TR --nproc-per-node 3 --master-port 29733 $G/train.py --mode emfile --bad-rank 2 --at 4 --workers 1" > console.log 2>&1; }
r034() { cd $R/034 && $TR --nproc-per-node 4 --master-port 29734 $G/train.py --mode writer_hang --ckpt $W/ck034.pt --bad-rank 0 --at 3 --fmt logging > console.log 2>&1; }
r035() { cd $R/035 && $TR --nproc-per-node 2 --master-port 29735 $G/train.py --mode divergence --lr 0.5 --steps 20 > console.log 2>&1; }
r036() { rm -rf $W/pl036; $PY $G/pl.py --mode healthy --hidden 64 --devices 1 --root $W/pl036 > /dev/null 2>&1; cd $R/036 && $PY $G/pl.py --mode mismatch --root $W/pl036 > console.log 2>&1; }
r037() { cd $R/037 && sbatch -o "slurm-%j.out" -n 2 -J r56-037 $G/job_preempt.sh > jobid.txt; sleep 25; scancel $(awk '{print $4}' jobid.txt); sleep 15; rm jobid.txt; }
r038() { cd $R/038 && sb $R/038 -n 2 -t 1 -J r56-038 $G/job_srun.sh -- --steps 400 --step-sleep 0.3 --fmt pipe; }
r049() { cg; cd $R/049 && $TR --nproc-per-node 3 --master-port 29749 --log-dir logs --redirects 3 $G/train.py --mode cgroup_oom --cgroup $CG --bad-rank 0 --at 5 --fmt logging > console.log 2>&1; }
r050() { cd $R/050 && sb $R/050 -n 2 -t 1 -J r56-050 $G/job_srun.sh -- --mode lock --bad-rank 1 --at 6 --timeout 900 --steps 40 --fmt pipe; }
# healthy
r039() { cd $R/039 && $TR --nproc-per-node 4 --master-port 29739 $G/train.py --noise retry > console.log 2>&1; }
r040() { cd $R/040 && sb $R/040 -n 4 -J r56-040 $G/job_srun.sh -- --noise errword,keyerror --fmt logging; }
r041() { cd $R/041 && $PY -W default $G/spawn.py 3 29741 --noise warnings,nanskip --fmt pipe > console.log 2>&1; }
r042() { rm -rf $W/pl042; cd $R/042 && $PY $G/pl.py --mode healthy --root $W/pl042 > console.log 2>&1; }
r043() { cd $R/043 && $T/accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --mixed_precision no --dynamo_backend no --main_process_port 29743 $G/train.py --noise retry,errword > console.log 2>&1; }
r044() { cd $R/044 && $TR --nproc-per-node 3 --max-restarts 1 --master-port 29744 $G/train.py --mode raise --bad-rank 1 --at 3 --mode2 healthy --noise keyerror --fmt pipe > console.log 2>&1; }
r045() { cd $R/045 && $TR --nproc-per-node 2 --master-port 29745 $G/scaler.py > console.log 2>&1; }
r046() { cd $R/046 && ( $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29746 $G/train.py --ddp --noise retry,nanskip > node1.log 2>&1 & $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29746 $G/train.py --ddp --noise retry,nanskip > node0.log 2>&1; wait ); }
r047() { cd $R/047 && TORCH_DISTRIBUTED_DEBUG=DETAIL $TR --nproc-per-node 2 --master-port 29747 --log-dir logs --redirects 3 $G/train.py --workers 2 --noise keyerror,warnings > console.log 2>&1; }
r051() { cd $R/051 && INIT_SCALE=65536 GROWTH_INTERVAL=2000 STEPS=40 $TR --nproc-per-node 2 --master-port 29751 $G/scaler.py > console.log 2>&1; }
r052() { cd $R/052 && (cd $R/052 && sbatch --wait -o "slurm-%j.out" -n 3 -J r56-052 $G/job_srun.sh --output=rank_%t.log -- --noise retry,errword --fmt pipe >/dev/null 2>&1); }
r053() { mkdir -p $R/053/fr && cd $R/053 && TORCH_FR_BUFFER_SIZE=2000 TORCH_FR_DUMP_TEMP_FILE=$R/053/fr/nccl_trace_rank_ $TR --nproc-per-node 4 --master-port 29753 --log-dir $W/logs053 --redirects 3 $G/train.py --fr-dump --mode sleep --bad-rank 1 --at 5 > console.log 2>&1; }
r054() { cd $R/054 && $TR --nproc-per-node 8 --master-port 29754 $G/train.py --mode loop_hook --bad-rank 5 --at 3 --timeout 25 --fmt pipe > console.log 2>&1; }
r055() { cg; cd $R/055 && (cd $R/055 && sbatch --wait -o "slurm-%j.out" -n 4 -J r56-055 $G/job_srun.sh --output=rank_%t.log -- --mode cgroup_oom --cgroup $CG --bad-rank 3 --at 4 --fmt logging >/dev/null 2>&1); }
r048() { cd $R/048 && sb $R/048 -n 3 -J r56-048 $G/job_srun.sh -- --noise nanskip,retry --workers 1 --fmt bracket; }

for n in "$@"; do rm -rf $R/$n; mkdir -p $R/$n; echo "== $n"; ( r$n ); done
