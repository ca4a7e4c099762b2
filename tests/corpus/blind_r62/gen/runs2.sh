#!/bin/bash
# mp.spawn / Lightning runs of r62. Usage: bash runs2.sh rNNN
PY=/work/blind/torchenv/bin/python; G=/work/blind/r62/gen; R=/work/blind/r62/runs
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
plan() { echo "{\"run\": \"$1\", \"class\": \"$2\", \"initiating_rank\": $3, \"plan\": \"$4\"}" >> $G/plan.jsonl; }
pt() { echo $((29700 + 10#$1)); }
source /work/blind/slurm62/env.sh; T=$G/train.py; TR=/work/blind/torchenv/bin/torchrun
sb() { local n=$1; shift; mkdir -p $R/$n; cat > $G/sbatch/$n.sbatch; local j=$(cd $R/$n && sbatch --parsable "$@" $G/sbatch/$n.sbatch)
  while squeue -h -j $j 2>/dev/null | grep -q .; do sleep 1; done; sleep 1; }
r052() { plan 052 checkpoint_disk_full 0 "sbatch + srun per-rank files: rank 0 saves through a Python file object onto a full 1MB tmpfs"
mkdir -p /tmp/r62full052; mountpoint -q /tmp/r62full052 || mount -t tmpfs -o size=1m tmpfs /tmp/r62full052; rm -f /tmp/r62full052/*
sb 052 -J ckpt-enospc -n 3 --time=3 <<X
#!/bin/bash
export MASTER_PORT=$(pt 052) CKPT_DIR=/tmp/r62full052 CKPT_EVERY=6 CKPT_PAD=400000 CKPT_FOBJ=1 TO=20 FMT=logging STEPS=20
srun -o %x-%j-%t.out $PY $T
X
}
r049() { plan 049 collective_mismatch 1 "torchrun 3 procs (no debug env), rank 1 issues an extra all_reduce of 7 floats at step 4 while the others run DDP's bucket all_reduce"
mkdir -p $R/049; cd /tmp; FAULT=mismatch FAULT_RANK=1 FAULT_STEP=4 TO=12 STEPS=12 FMT=prefix $TR --nproc-per-node 3 --master-port $(pt 049) $T > $R/049/console.log 2>&1; }
r050() { plan 050 nccl_timeout 1 "torchrun --max-restarts 1, rank 1 sleeps silently at step 4 in both attempts"
mkdir -p $R/050; cd /tmp; FAULT=sleep FAULT_RANK=1 FAULT_STEP=4 TO=10 STEPS=12 FMT=logging $TR --nproc-per-node 2 --max-restarts 1 --master-port $(pt 050) $T > $R/050/console.log 2>&1; }
r051() { plan 051 tokenizer_or_data_error 2 "sbatch --time=1 + srun -l, gloo timeout 600s: rank 2's prefetch thread dies on a corrupt record, main thread waits forever, everyone idles until the Slurm time limit"
sb 051 -J pretrain-tl -n 3 --time=1 <<X
#!/bin/bash
export MASTER_PORT=$(pt 051) FAULT=thread FAULT_RANK=2 FAULT_STEP=6 TO=600 FMT=plain STEPS=500
srun -l $PY $T
X
}
r035() { plan 035 unrecognised 1 "mp.spawn 2 procs, rank 1 calls os.abort() (SIGABRT) at step 6"
mkdir -p $R/035; cd /tmp; NPROCS=2 MASTER_PORT=$(pt 035) FAULT=abort FAULT_RANK=1 FAULT_STEP=6 TO=15 STEPS=15 FMT=prefix $PY $G/spawn_train.py > $R/035/output.txt 2>&1; }
r036() { plan 036 host_oom_killed 1 "mp.spawn 3 procs under ulimit -v 6GB, rank 1 fails a 128GB CPU allocation (DefaultCPUAllocator)"
mkdir -p $R/036; cd /tmp; (ulimit -v 6000000; NPROCS=3 MASTER_PORT=$(pt 036) FAULT=memerr FAULT_RANK=1 FAULT_STEP=5 TO=15 STEPS=15 FMT=logging_rank $PY $G/spawn_train.py > $R/036/output.txt 2>&1); }
r037() { plan 037 python_exception_other null "Lightning DDP 2 procs on CPU, meant healthy, but the module had an unused layer -> DDP unused-parameters error on both ranks"
mkdir -p $R/037; cd /tmp/r62lit037 2>/dev/null || { mkdir -p /tmp/r62lit037; cd /tmp/r62lit037; }; UNUSED_HEAD=1 MASTER_PORT=$(pt 037) EPOCHS=3 $PY $G/lit_train.py > $R/037/fit.log 2>&1; }
r038() { plan 038 shape_mismatch 1 "Lightning DDP 2 procs, validation batch of rank 1 has 30 features in epoch 1"
mkdir -p $R/038 /tmp/r62lit038; cd /tmp/r62lit038; MASTER_PORT=$(pt 038) FAULT=val_shape FAULT_RANK=1 FAULT_STEP=2 EPOCHS=3 $PY $G/lit_train.py > $R/038/fit.log 2>&1; }
r053() { plan 053 healthy null "Lightning DDP 2 procs on CPU, healthy"
mkdir -p $R/053 /tmp/r62lit053; cd /tmp/r62lit053; MASTER_PORT=$(pt 053) EPOCHS=3 $PY $G/lit_train.py > $R/053/fit.log 2>&1; }
r042() { plan 042 healthy null "mp.spawn 3 procs, healthy with eval and logging"
mkdir -p $R/042; cd /tmp; NPROCS=3 MASTER_PORT=$(pt 042) EVAL_EVERY=10 STEPS=40 FMT=logging_rank $PY $G/spawn_train.py > $R/042/output.txt 2>&1; }
r048() { plan 048 nccl_timeout 2 "mp.spawn 3 procs, rank 2 sleeps silently at step 5"
mkdir -p $R/048; cd /tmp; NPROCS=3 MASTER_PORT=$(pt 048) FAULT=sleep FAULT_RANK=2 FAULT_STEP=5 TO=10 STEPS=15 FMT=plain $PY $G/spawn_train.py > $R/048/output.txt 2>&1; }
"$@"
