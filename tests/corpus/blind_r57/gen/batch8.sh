#!/usr/bin/env bash
# scheduler + healthy runs
source "$(dirname "$0")/common.sh"
r013() { newrun 013; jid=$(sbatch --parsable -J pretrain -N 1 -n 1 -c 6 -o train-%j.log --wrap "ATTEMPT_PREFIX=1 PG_TIMEOUT=60 SCEN=alloc TARGET=4 AT=2 FMT=prefixed $TR --nproc-per-node 6 --max-restarts 5 --master-port 29513 $G/worker.py")
  for i in $(seq 90); do sleep 2; n=$(grep -c "failed (exitcode" train-$jid.log 2>/dev/null); [ "${n:-0}" -ge 2 ] && break; done; sleep 4; scancel $jid; sleep 10; }
r036() { newrun 036; jid=$(sbatch --parsable -J finetune -n 2 -o slurm-%j.out --wrap "CKPT=$W/ck36.pt SCEN=preempt STEPS=500 SLEEP=0.3 FMT=logging MASTER_PORT=29536 srun $PY $G/worker.py")
  sleep 25; scancel $jid; sleep 10; }
r037() { newrun 037; sbatch -W -J longrun -n 4 -t 1 -o slurm-%j.out --wrap "STEPS=1000 SLEEP=0.5 FMT=json MASTER_PORT=29537 srun $PY $G/worker.py" >/dev/null; }
r038() { newrun 038; SCEN=caught TARGET=2 AT=3 FMT=logging timeout 120 $TR --nproc-per-node 4 --master-port 29538 $G/worker.py > console.log 2>&1; }
r039() { newrun 039; sbatch -W -J evalerr -n 3 -o slurm-%j.out --wrap "SCEN=errtext FMT=prefixed MASTER_PORT=29539 srun $PY $G/worker.py" >/dev/null; }
r040() { newrun 040; SCEN=fp16warm STEPS=12 FMT=tqdm timeout 120 $TR --nproc-per-node 2 --master-port 29540 $G/worker.py > train.out 2>&1; }
r041() { newrun 041; sbatch -W -J dl4 -n 4 -o slurm-%j.out --wrap "NW=1 PREFETCH=1 FMT=json MASTER_PORT=29541 srun $PY -W always $G/worker.py" >/dev/null; }
r042() { newrun 042; ALLLOG=1 FMT=plain MASTER_PORT=29542 PYTHONWARNINGS=always timeout 120 $PY $G/spawn.py 2 logs > launcher.txt 2>&1; }
r043() { newrun 043; mkdir -p $W/hfcache43; HF_HOME=$W/hfcache43 HF_ENDPOINT=http://127.0.0.1:9 HUB_MODEL=bert-base-uncased SCEN=hub TARGET=0 FMT=logging timeout 180 $TR --nproc-per-node 3 --master-port 29543 $G/worker.py > console.log 2>&1; }
"$@"
