#!/bin/bash
source /work/blind/r59/gen/common.sh
CG=/sys/fs/cgroup/memory/process_api/904cd2448ba670791e4c74ccfe835116/b59oom
CK=/tmp/r59ck; rm -rf $CK; $PY /work/blind/r59/gen/mkckpt.py $CK

# restart: attempt 0 rank 3 host OOM (RLIMIT), attempt 1 rank 0 fails on the resume checkpoint never written
mk 013; cat > /tmp/r59_013.sh <<'EOS'
#!/bin/bash
if [ "$TORCHELASTIC_RESTART_COUNT" != "0" ]; then export SCEN=ckpt_missing FAIL_RANK=0 CKPT_DIR=/tmp/r59_013_ckpt; fi
exec /work/blind/torchenv/bin/python /work/blind/r59/gen/w.py
EOS
chmod +x /tmp/r59_013.sh
SCEN=oom_rlimit FAIL_RANK=3 FAIL_STEP=4 LOGFMT=logging $TR --nproc-per-node 4 --master-port 29713 --max-restarts 1 --no-python /tmp/r59_013.sh > console.log 2>&1
mk 014; SCEN=dl_worker_kill NUM_WORKERS=2 FAIL_RANK=1 FAIL_STEP=3 LOGFMT=prefix $TR --nproc-per-node 3 --master-port 29714 --log-dir logs --tee 3 $W > console.log 2>&1
mk 015; SCEN=nofile FAIL_RANK=0 FAIL_STEP=2 LOGFMT=json $TR --nproc-per-node 3 --master-port 29715 $W > console.log 2>&1
# read-only checkpoint dir
mkdir -p /tmp/r59ro; mount -t tmpfs -o size=1m,ro tmpfs /tmp/r59ro
mk 016; SAVE_CKPT=1 CKPT_DIR=/tmp/r59ro/ckpt_run7 STEPS=5 LOGFMT=logging $TR --nproc-per-node 4 --master-port 29716 $W > console.log 2>&1
umount /tmp/r59ro
mkdir -p /tmp/r59ro; mount -t tmpfs -o ro tmpfs /tmp/r59ro
# disk full: tiny tmpfs, rank 2 writes its optimizer shard mid-run
mkdir -p /tmp/r59full; mount -t tmpfs -o size=256k tmpfs /tmp/r59full
mk 017; SCEN=ckpt_write CKPT_DIR=/tmp/r59full CKPT_PAD=200000 FAIL_RANK=2 FAIL_STEP=4 LOGFMT=prefix $TR --nproc-per-node 4 --master-port 29717 $W > console.log 2>&1
umount /tmp/r59full; umount /tmp/r59ro
mk 018; SCEN=ckpt_load_mismatch CKPT_DIR=$CK FAIL_RANK=0 PG_TIMEOUT=15 LOGFMT=prefix $TR --nproc-per-node 3 --master-port 29718 $W > console.log 2>&1
mk 019; SCEN=ckpt_corrupt CKPT_DIR=$CK FAIL_RANK=3 LOGFMT=logging $TR --nproc-per-node 4 --master-port 29719 --log-dir logs --redirects 3 $W > console.log 2>&1
mk 020; SCEN=divergence LR=0.02 STEPS=30 STEP_SLEEP=0.05 LOGFMT=rank0 $TR --nproc-per-node 3 --master-port 29720 $W > console.log 2>&1
mk 021; SCEN=segv FAIL_RANK=2 FAIL_STEP=3 LOGFMT=plain $TR --nproc-per-node 4 --master-port 29721 $W > console.log 2>&1
mk 022; SCEN=abort FAIL_RANK=5 FAIL_STEP=2 LOGFMT=prefix2 $TR --nproc-per-node 6 --master-port 29722 --log-dir logs --redirects 3 $W > console.log 2>&1
# mp.spawn
mk 023; SCEN=assert FAIL_RANK=1 FAIL_STEP=3 LOGFMT=prefix2 $PY /work/blind/r59/gen/spawn.py 4 29723 > console.log 2>&1
mk 024; SCEN=oom_cgroup OOM_CGROUP=$CG FAIL_RANK=2 FAIL_STEP=3 LOGFMT=logging_norank $PY /work/blind/r59/gen/spawn.py 3 29724 > console.log 2>&1
# port in use: rank 0 cannot bind the tcp:// init store
$PY /work/blind/r59/gen/holdport.py 29725 40 & HP=$!; sleep 1
mk 025; INIT_METHOD=tcp://127.0.0.1:29725 PG_TIMEOUT=15 LOGFMT=prefix $PY /work/blind/r59/gen/spawn.py 3 > console.log 2>&1
kill $HP; wait $HP 2>/dev/null
