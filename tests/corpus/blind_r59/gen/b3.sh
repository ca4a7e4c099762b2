#!/bin/bash
source /work/blind/r59/gen/common.sh
source /work/blind/slurm59/env.sh
CG=/sys/fs/cgroup/memory/process_api/904cd2448ba670791e4c74ccfe835116/b59oom
sb() { # run dir, ntasks, port, extra sbatch args...
  local d=$1 n=$2 p=$3; shift 3
  mkdir -p $R/$d; rm -f $R/$d/*
  PORT=$p sbatch --parsable -J train_$d -n $n -o $R/$d/slurm-%j.out -D $R/$d --export=ALL "$@" /work/blind/r59/gen/job.sbatch
}
waitjob() { while squeue -h -j $1 2>/dev/null | grep -q .; do sleep 2; done; }
# long-running ones in parallel first
J32=$(SCEN=thread_exc FAIL_RANK=2 FAIL_STEP=4 PG_TIMEOUT=3600 LOGFMT=prefix SRUN_OPTS="-l" sb 032 3 29832 --time=1)
J34=$(STEPS=100000 STEP_SLEEP=0.5 LOGFMT=logging_norank SRUN_OPTS="" sb 034 2 29834 --time=1)
J33=$(SCEN=blocked_read FAIL_RANK=1 FAIL_STEP=4 PG_TIMEOUT=3600 LOGFMT=json SRUN_OPTS="-l" sb 033 4 29833)
J35=$(STEPS=100000 STEP_SLEEP=0.5 SIGTERM_HANDLER=1 LOGFMT=logging SRUN_OPTS="-l" sb 035 3 29835)
sleep 40; scancel $J33; sleep 5; scancel --signal=TERM $J35
waitjob $J33; waitjob $J35
J30=$(SCEN=runtime_other FAIL_RANK=3 FAIL_STEP=3 LOGFMT=logging SRUN_OPTS="-l --kill-on-bad-exit=1" sb 030 4 29830); waitjob $J30
J31=$(SCEN=segv FAIL_RANK=1 FAIL_STEP=3 LOGFMT=plain SRUN_OPTS="--kill-on-bad-exit=1" sb 031 4 29831); waitjob $J31
J36=$(SCEN=dtype FAIL_RANK=2 FAIL_STEP=3 LOGFMT=logging_norank PG_TIMEOUT=20 SRUN_OPTS="-o rank_%t.log -e rank_%t.log" sb 036 4 29836); waitjob $J36
J37=$(SCEN=oom_cgroup OOM_CGROUP=$CG FAIL_RANK=4 FAIL_STEP=3 LOGFMT=prefix SRUN_OPTS="-l --kill-on-bad-exit=1" sb 037 5 29837); waitjob $J37
J39=$(TORCH_DISTRIBUTED_DEBUG=INFO TORCH_CPP_LOG_LEVEL=INFO LOGFMT=prefix EXTRA_MSG="eval: val_error_rate=0.231 top5_error=0.044||UserWarning: The given NumPy array is not writable, and PyTorch does not support non-writable tensors" SRUN_OPTS="-l" sb 039 3 29839); waitjob $J39
waitjob $J32; waitjob $J34
for j in $J30 $J31 $J32 $J33 $J34 $J35 $J36 $J37 $J39; do scontrol show job $j | grep -E "JobId|JobState|ExitCode" | tr -s ' ' | tr '\n' ' '; echo; done
