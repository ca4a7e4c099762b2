#!/bin/bash
source /work/blind/r31/gen/env.sh
RAW=/work/blind/r31/gen/raw
ACC="accelerate launch --multi_gpu --num_machines 1 --mixed_precision no --dynamo_backend no"
prep() { rm -rf $R/$1 $RAW/$1; mkdir -p $R/$1 $RAW/$1; cd $RAW/$1; }
r039() { prep 039; NUM_NODES=2 NODE_RANK=0 MASTER_ADDR=127.0.0.1 LOGDIR=$RAW/039/pl STEPS=60 MASTER_PORT=37039 timeout 170 python $G/pl_train.py > console.log 2>&1; echo rc=$? > rc; cp console.log $R/039/; }
r040() { prep 040; OUT=$RAW/040/out SAVE_STEPS=20 STEPS=20 timeout 170 $ACC --num_processes 2 --main_process_port 37040 $G/hf_trainer.py > first.log 2>&1; NEMBD=48 OUT=$RAW/040/out RESUME=$RAW/040/out/checkpoint-20 STEPS=60 timeout 170 $ACC --num_processes 2 --main_process_port 37040 $G/hf_trainer.py > console.log 2>&1; echo rc=$? > rc; cp console.log $R/040/; }
r041() { prep 041; mkdir -p $RAW/041/out; mount -t tmpfs -o size=2M tmpfs $RAW/041/out; NEMBD=256 OUT=$RAW/041/out SAVE_STEPS=10 STEPS=40 timeout 170 torchrun --nproc_per_node 2 --master_port 37041 $G/hf_trainer.py > console.log 2>&1; echo rc=$? > rc; df -h $RAW/041/out >> rc; umount $RAW/041/out; cp console.log $R/041/; }
for n in "$@"; do ( r$n ); echo "run $n done: $(cat $RAW/$n/rc 2>/dev/null | head -1)"; done
