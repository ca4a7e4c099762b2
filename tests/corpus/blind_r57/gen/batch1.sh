#!/usr/bin/env bash
# silent culprits and signal deaths, torchrun/mp.spawn
source "$(dirname "$0")/common.sh"
r001() { newrun 001; SCEN=sleep TARGET=2 AT=3 FMT=logging timeout 120 $TR --nproc-per-node 4 --master-port 29501 $G/worker.py > console.log 2>&1; }
r002() { newrun 002; ALLLOG=1 SCEN=lock TARGET=1 AT=4 FMT=plain MASTER_PORT=29502 timeout 120 $PY $G/spawn.py 3 logs > launcher.txt 2>&1; }
r004() { newrun 004; SCEN=loop TARGET=0 AT=2 FMT=tqdm timeout 120 $TR --nproc-per-node 2 --master-port 29504 $G/worker.py > train.out 2>&1; }
r005() { newrun 005; SCEN=kill SIG=SIGKILL TARGET=3 AT=5 FMT=logging timeout 120 $TR --nproc-per-node 4 --master-port 29505 --log-dir torchlogs --redirects 3 $G/worker.py > launcher_console.log 2>&1; }
r003() { newrun 003; rm -f $W/ctl.fifo; mkfifo $W/ctl.fifo; sbatch -W -J fifo6 -n 6 -o slurm-%j.out --wrap "FIFO=$W/ctl.fifo SCEN=fifo TARGET=5 AT=4 FMT=json MASTER_PORT=29503 srun $PY $G/worker.py" >/dev/null; rm -f $W/ctl.fifo; }
"$@"
