#!/bin/bash
# Part 4: extra runs, after part3.
source /work/blind/r54/set/gen/lib.sh
cd /tmp/r54
while ! grep -q "PART3 DONE" /tmp/r54/part3.out; do sleep 2; done
# 039 dataloader worker SIGKILLed on rank 2 (samples are lists, so the loader itself notices the dead worker); srun per-task files
newrun 039; cd $R
DL_LIST=1 FAIL=dlkill FAIL_RANK=2 FAIL_STEP=30 STEPS=60 STYLE=glog MASTER_ADDR=127.0.0.1 MASTER_PORT=$(port 39) \
 timeout 100 srun -n4 -o r%t.log bash -c 'export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID; exec '$PY' '$T > srun.log 2>&1; echo rc=$?
cd /tmp/r54
# 040 checkpoint disk full (legacy torch.save format, 5 MB tmpfs): rank 3 saves its optimizer shard at step 120/150; torchrun --log-dir tree only
newrun 040; mkdir -p /tmp/r54/full40; mount -t tmpfs -o size=5m tmpfs /tmp/r54/full40
CKPT_LEGACY=1 FAIL=ckpt_save FAIL_RANK=3 FAIL_STEP=120 STEPS=150 STEP_SLEEP=0.01 CKPT_DIR=/tmp/r54/full40/ck CKPT_PAD=3000000 timeout 100 $TR --nproc_per_node 4 --master_port $(port 40) --log-dir $R/torchrun-logs --redirects 3 $T > /tmp/r54/r040-console.log 2>&1; echo rc=$?
umount /tmp/r54/full40
# 041 healthy: rank 1 logs full tracebacks of handled JSONDecodeErrors every 20 steps (logging.exception), completes
newrun 041
FAIL=handled FAIL_RANK=1 STEPS=100 STEP_SLEEP=0.01 STYLE=epoch timeout 100 $TR --nproc_per_node 4 --master_port $(port 41) $T > $R/console.log 2>&1; echo rc=$?
# 042 elastic restart with c10d rendezvous: rank 1 raises on attempt 0, the agent restarts, attempt 1 should complete
newrun 042
FAIL=elastic_once FAIL_RANK=1 FAIL_STEP=20 STEPS=50 timeout 110 $TR --nnodes 1 --nproc_per_node 4 --max-restarts 2 --rdzv_backend c10d --rdzv_endpoint 127.0.0.1:$(port 42) --rdzv_id job42 $T > $R/console.log 2>&1; echo rc=$?
echo PART4 DONE
