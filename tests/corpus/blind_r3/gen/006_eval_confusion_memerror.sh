#!/bin/bash
# torchrun, no tee; JSON-lines logs from every rank interleaved on the console
R=/work/blind/r3/runs/006_eval_confusion_memerror; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job006; mkdir -p $J; cp /work/blind/r3/gen/006_eval_confusion_memerror.py $J/finetune_lm.py
cd $J
/work/blind/venv/bin/torchrun --standalone --nproc-per-node 2 finetune_lm.py > $R/console.log 2>&1
echo "exit $?"
