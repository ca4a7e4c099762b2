#!/usr/bin/env bash
# signals, memory, dataloader workers
source "$(dirname "$0")/common.sh"
r006() { newrun 006; sbatch -W -J segv4 -n 4 -o slurm-%j.out --wrap "SCEN=segv TARGET=1 AT=4 FMT=plain ALLLOG=1 MASTER_PORT=29506 srun --kill-on-bad-exit=0 $PY $G/worker.py" >/dev/null; }
r007() { newrun 007; mkdir -p $CGBASE/b57oom; echo 700M > $CGBASE/b57oom/memory.limit_in_bytes; echo 700M > $CGBASE/b57oom/memory.memsw.limit_in_bytes 2>/dev/null
  dmesg | tail -1 > /tmp/b57_dmesg_before
  CG=$CGBASE/b57oom SCEN=cgoom TARGET=1 AT=4 FMT=json timeout 120 $TR --nproc-per-node 3 --master-port 29507 $G/worker.py > console.log 2>&1
  dmesg | awk -v last="$(cat /tmp/b57_dmesg_before)" 'f{print} $0==last{f=1}' > dmesg.txt; rmdir $CGBASE/b57oom; }
r008() { newrun 008; NW=2 SIG=SIGBUS SCEN=dl_sig TARGET=2 AT=3 FMT=logging ALLLOG=1 timeout 120 $TR --nproc-per-node 4 --master-port 29508 --log-dir logs --redirects 3 $G/worker.py > /dev/null 2>&1; tar czf job_logs.tar.gz logs; rm -rf logs; }
r009() { newrun 009; sbatch -W -J tok -n 4 -o slurm-%j.out --wrap "SCEN=data TARGET=3 AT=5 FMT=logging MASTER_PORT=29509 srun --kill-on-bad-exit=1 $PY $G/worker.py" >/dev/null; }
r010() { newrun 010; SCEN=nan TARGET=1 AT=4 FMT=json timeout 120 $TR --nproc-per-node 4 --master-port 29510 $G/worker.py > stdout_stderr.log 2>&1; }
r011() { newrun 011; NW=2 SCEN=shape TARGET=2 AT=3 FMT=logging timeout 120 $TR --nproc-per-node 4 --master-port 29511 $G/worker.py > console.log 2>&1; }
"$@"
