#!/bin/bash
source /work/blind/r31/gen/env.sh
RAW=/work/blind/r31/gen/raw
ACC="accelerate launch --multi_gpu --num_machines 1 --mixed_precision no --dynamo_backend no"
prep() { rm -rf $R/$1 $RAW/$1; mkdir -p $R/$1 $RAW/$1; cd $RAW/$1; }
waitjob() { while squeue -h -j $1 2>/dev/null | grep -q .; do sleep 3; done; scontrol show job $1 > $RAW/$2/job.txt; }
r042() { prep 042; FAULT=silent FIFO=$RAW/042/fifo FAULT_RANK=1 FAULT_STEP=9 STEPS=60 timeout 170 torchrun --nproc_per_node 2 --master_port 37042 $G/hf_trainer.py > console.log 2>&1; echo rc=$? > rc; cp console.log $R/042/; }
r043() { prep 043; j=$(MASTER_PORT=37043 STEPS=100000 SLEEP=0.2 DEVICES=2 LOGDIR=$RAW/043/pl sbatch --parsable --ntasks=2 --ntasks-per-node=2 --time=10 -o $RAW/043/slurm-%j.out $G/sb_pl.sh); sleep 40; scancel $j; waitjob $j 043; echo rc=scancelled > rc; cp $RAW/043/slurm-$j.out $R/043/; }
for n in "$@"; do ( r$n ); echo "run $n done: $(cat $RAW/$n/rc 2>/dev/null | head -1)"; done
