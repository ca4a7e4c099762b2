#!/bin/bash
source /work/blind/r31/gen/env.sh
RAW=/work/blind/r31/gen/raw
ACC="accelerate launch --multi_gpu --num_machines 1 --mixed_precision no --dynamo_backend no"
prep() { rm -rf $R/$1 $RAW/$1; mkdir -p $R/$1 $RAW/$1; cd $RAW/$1; }
r044() { prep 044; (unset HF_HUB_OFFLINE TRANSFORMERS_OFFLINE; TOKENIZER=gpt2 HF_HUB_ETAG_TIMEOUT=5 HF_HUB_DOWNLOAD_TIMEOUT=5 STEPS=60 timeout 170 $ACC --num_processes 2 --main_process_port 37044 $G/hf_trainer.py > console.log 2>&1; echo rc=$? > rc); cp console.log $R/044/; }
r045() { prep 045; (ulimit -n 256; FAULT=fdleak SHARD_DIR=$RAW/045/shards FAULT_RANK=1 FAULT_STEP=8 STEPS=60 timeout 170 torchrun --nproc_per_node 2 --master_port 37045 $G/plain.py > console.log 2>&1; echo rc=$? > rc); cp console.log $R/045/; }
for n in "$@"; do ( r$n ); echo "run $n done: $(cat $RAW/$n/rc 2>/dev/null | head -1)"; done
