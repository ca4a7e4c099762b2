#!/bin/bash
# torchrun single-agent runs
source /work/blind/r59/gen/common.sh
CG=/sys/fs/cgroup/memory/process_api/904cd2448ba670791e4c74ccfe835116/b59oom
echo 300M > $CG/memory.limit_in_bytes; echo 300M > $CG/memory.memsw.limit_in_bytes 2>/dev/null

mk 001; SCEN=bad_sample FAIL_RANK=2 FAIL_STEP=3 LOGFMT=prefix $TR --nproc-per-node 4 --master-port 29701 $W > console.log 2>&1
mk 002; SCEN=oom_cgroup OOM_CGROUP=$CG FAIL_RANK=1 FAIL_STEP=4 LOGFMT=logging $TR --nproc-per-node 3 --master-port 29702 --log-dir logs --redirects 3 $W > console.log 2>&1
mk 003; SCEN=sleep FAIL_RANK=3 FAIL_STEP=3 PG_TIMEOUT=15 LOGFMT=prefix $TR --nproc-per-node 5 --master-port 29703 $W > console.log 2>&1
mk 004; SCEN=deadlock FAIL_RANK=0 FAIL_STEP=2 NO_DDP=1 PG_TIMEOUT=15 LOGFMT=json $TR --nproc-per-node 4 --master-port 29704 $W > console.log 2>&1
mk 005; SCEN=exit0 FAIL_RANK=4 FAIL_STEP=5 STEPS=8 LOGFMT=logging_norank PG_TIMEOUT=20 $TR --nproc-per-node 6 --master-port 29705 $W > console.log 2>&1
mk 006; SCEN=mismatch_size FAIL_RANK=2 FAIL_STEP=3 NO_DDP=1 TORCH_DISTRIBUTED_DEBUG=DETAIL LOGFMT=prefix $TR --nproc-per-node 4 --master-port 29706 $W > console.log 2>&1
mk 007; SCEN=mismatch_op FAIL_RANK=1 FAIL_STEP=2 NO_DDP=1 TORCH_DISTRIBUTED_DEBUG=DETAIL LOGFMT=logging $TR --nproc-per-node 3 --master-port 29707 --log-dir logs --tee 3 $W > console.log 2>&1
mk 008; SCEN=mismatch_dtype FAIL_RANK=4 FAIL_STEP=3 NO_DDP=1 PG_TIMEOUT=15 LOGFMT=prefix $TR --nproc-per-node 5 --master-port 29708 $W > console.log 2>&1
mk 009; SCEN=nan FAIL_RANK=1 FAIL_STEP=4 LOGFMT=logging $TR --nproc-per-node 4 --master-port 29709 $W > console.log 2>&1
mk 010; SCEN=oom_rlimit FAIL_RANK=2 FAIL_STEP=3 LOGFMT=prefix2 $TR --nproc-per-node 3 --master-port 29710 $W > console.log 2>&1
mk 011; SCEN=thread_exc FAIL_RANK=2 FAIL_STEP=4 PG_TIMEOUT=15 LOGFMT=plain $TR --nproc-per-node 4 --master-port 29711 $W > console.log 2>&1
mk 012; SCEN=collate_keyerror FAIL_RANK=1 FAIL_STEP=2 LOGFMT=prefix $TR --nproc-per-node 3 --master-port 29712 --max-restarts 2 --log-dir logs --tee 3 $W > console.log 2>&1
