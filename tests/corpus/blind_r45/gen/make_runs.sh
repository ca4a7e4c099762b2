#!/usr/bin/env bash
# Regenerates every run: bash make_runs.sh [NNN ...]   (needs the private Slurm up: bash /work/blind/slurm45/start.sh)
source /work/blind/r45/set/gen/common.sh
source /work/blind/slurm45/env.sh
T="timeout 175"

r001() { mkrun 001; $T $TR --nproc-per-node 2 --master-port 54101 --tee 3 $G/train.py --mode warnings --tqdm > console.log 2>&1; }
r002() { mkrun 002; mkdir -p $W/tr002; rm -rf $W/tr002/*; $T $TR --nproc-per-node 4 --master-port 54102 --log-dir $W/tr002/logs \
          $G/train.py --mode data_error --bad-rank 2 --bad-step 14 --style logging > console.log 2>&1; cp -r $W/tr002/logs ./torchrun_logs; }
r004() { mkrun 004; $T $TR --nproc-per-node 3 --master-port 54104 --tee 3 $G/train.py --mode mem --bad-rank 1 --bad-step 22 > console.log 2>&1; }
r005() { mkrun 005; PYTHONDEVMODE=1 $T $TR --nproc-per-node 2 --master-port 54105 $G/train.py --mode teardown --style logging > console.log 2>&1; }
r007() { mkrun 007; TORCH_DISTRIBUTED_DEBUG=DETAIL $T $PY $G/collective.py 3 54107 > console.log 2>&1; }
r008() { mkrun 008; rm -rf $W/tr008; $T $TR --nproc-per-node 2 --master-port 54108 --max-restarts 2 --log-dir $W/tr008 --tee 3 \
          $G/train.py --mode restart_once --bad-rank 1 --bad-step 18 --style logging > console.log 2>&1; cp -r $W/tr008 ./elastic; }
r009() { mkrun 009; MASTER_PORT=54109 $T srun -n 2 --label $PY $G/train.py --mode slow_master --style logging > console.log 2>&1; }
r010() { mkrun 010; MASTER_PORT=54110 $T srun -n 3 --label $PY $G/train.py --mode blocked --bad-rank 1 --bad-step 23 --timeout 30 > console.log 2>&1; }
r012() { mkrun 012; $T $TR --nproc-per-node 2 --master-port 54112 $G/train.py --mode nan_skip --style logging > console.log 2>&1; }
r014() { mkrun 014; $T $TR --nproc-per-node 3 --master-port 54114 --tee 3 $G/train.py --mode spike --style json --steps 70 > console.log 2>&1; }
r015() { mkrun 015; rm -rf $W/ck015; $TR --nproc-per-node 2 --master-port 54115 $G/train.py --steps 40 --ckpt $W/ck015/last.pt > /dev/null 2>&1
          $T $TR --nproc-per-node 2 --master-port 54115 $G/train.py --steps 80 --resume $W/ck015/last.pt --ckpt $W/ck015/last.pt --style logging > console.log 2>&1; }
r019() { mkrun 019; MASTER_PORT=54119 $T srun -n 3 -o 'task-%t.out' $PY $G/train.py --mode config_dump --style print; }
r020() { mkrun 020; $T $TR --nproc-per-node 2 --master-port 54120 --tee 3 $G/train.py --mode metrics_thread --style logging --steps 80 > console.log 2>&1; }
r024() { mkrun 024; $T $PY $G/train.py --spawn 3 --port 54124 --mode caught_exc --style logging > console.log 2>&1; }
r025() { mkrun 025; rm -rf $W/tr025; $T $TR --nproc-per-node 2 --master-port 54125 --log-dir $W/tr025 --tee 3 \
          $G/train.py --mode dl_kill --bad-rank 1 --bad-step 16 --style logging > console.log 2>&1; cp -r $W/tr025 ./elastic; }
r026() { mkrun 026; rm -f $W/dl_restart.flag; $T $TR --nproc-per-node 2 --master-port 54126 $G/train.py --mode dl_restart --style logging --bad-rank 1 --bad-step 20 > console.log 2>&1; }
r031() { mkrun 031; $T $PY $G/train.py --spawn 2 --port 54131 --mode bg_thread_data --bad-rank 1 --bad-step 30 --style json > console.log 2>&1; }
r033() { mkrun 033; rm -rf $W/tr033; $T $TR --nnodes 1 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:54133 --max-restarts 2 \
          --log-dir $W/tr033 --tee 3 $G/train.py --mode restart_once --bad-rank 1 --bad-step 18 --style logging > console.log 2>&1; cp -r $W/tr033 ./elastic; }

sb() { # sbatch --wait, copy the job's output file here
  local jid; jid=$(sbatch --parsable --chdir "$PWD" "$@"); scontrol wait_job "$jid" >/dev/null 2>&1
  while squeue -h -j "$jid" 2>/dev/null | grep -q .; do sleep 2; done; echo "job $jid: $(scontrol show job $jid | grep -o 'JobState=[A-Z_]*')" >&2; }
hfsetup() { [ -f $W/tiny-bert/config.json ] || $PY $G/make_tiny_model.py $W/tiny-bert; }
r003() { mkrun 003; hfsetup; rm -rf $W/hf003; $T $TR --nproc-per-node 2 --master-port 54103 $G/hf_train.py --mode train_es --out $W/hf003 > console.log 2>&1; }
r006() { mkrun 006; $T $PY $G/pl_train.py --mode early_stop > console.log 2>&1; }
r011() { mkrun 011; $T $V/accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --main_process_port 54111 --mixed_precision no --dynamo_backend no $G/acc_train.py --mode scaler > console.log 2>&1; }
r013() { mkrun 013; sb $G/sbatch_timelimit.sh; }
r016() { mkrun 016; mkdir -p $W/ck016; mountpoint -q $W/ck016 || mount -t tmpfs -o size=8m tmpfs $W/ck016; rm -rf $W/ck016/*
          $T $PY $G/pl_train.py --mode ckpt --width 512 --epochs 5 --ckpt-dir $W/ck016 > console.log 2>&1; umount $W/ck016; }
r017() { mkrun 017; hfsetup; sb $G/sbatch_hf_eval.sh; }
r018() { mkrun 018; $T $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:54118 --rdzv-id job018 \
          --rdzv-conf join_timeout=25 $G/train.py --style logging > console.log 2>&1; }
r021() { mkrun 021; for n in 0 1; do ( [ $n = 1 ] && sleep 2; $T $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:54121 \
          --rdzv-id job021 --tee 3 $G/train.py --mode early_exit --bad-rank 2 --bad-step 27 > node$n.log 2>&1 ) & done; wait; }
r022() { mkrun 022; for n in 0 1; do ( [ $n = 1 ] && sleep 7; $T $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:54122 \
          --rdzv-id job022 $G/train.py --mode warnings --style logging > node$n.log 2>&1 ) & done; wait; }
r023() { mkrun 023; $PY -c "import socket,time; s=socket.socket(); s.bind(('0.0.0.0',54123)); s.listen(); time.sleep(60)" & local hold=$!; sleep 1
          $T $TR --nnodes 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 54123 $G/train.py > console.log 2>&1; kill $hold; }
r027() { mkrun 027; $T $V/accelerate launch --multi_gpu --num_processes 3 --num_machines 1 --main_process_port 54127 --mixed_precision no --dynamo_backend no $G/acc_train.py --mode nan --bad-rank 1 --bad-step 47 > console.log 2>&1; }
r028() { mkrun 028; rm -rf $W/pl_ckpt_slurm; sb $G/sbatch_pl.sh; }
r029() { mkrun 029; hfsetup; HF_HUB_OFFLINE=0 TRANSFORMERS_OFFLINE=0 HF_ENDPOINT=http://127.0.0.1:54998 HF_HOME=$W/hfhome029 $T $TR --nproc-per-node 2 --master-port 54129 $G/hf_train.py --mode hub_error --out $W/hf029 > console.log 2>&1; }
r030() { mkrun 030; hfsetup; HF_HUB_OFFLINE=0 TRANSFORMERS_OFFLINE=0 HF_ENDPOINT=http://127.0.0.1:54997 HF_HOME=$W/hfhome030 $T $TR --nproc-per-node 2 --master-port 54130 --tee 3 $G/hf_train.py --mode hub_fallback --steps 30 --out $W/hf030 > console.log 2>&1; }
r032() { mkrun 032; sb $G/sbatch_plain.sh; }
r034() { mkrun 034; rm -rf $W/ck034; $T $TR --nproc-per-node 2 --master-port 54134 $G/pl_train.py --mode ckpt --epochs 3 --ckpt-dir $W/ck034 > console.log 2>&1; }

for r in "${@:-$(declare -F | awk '{print $3}' | grep '^r[0-9]')}"; do r=${r#r}; echo "== $r"; r$r; echo "rc=$?"; done
