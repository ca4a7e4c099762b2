#!/bin/bash
# torchrun --log-dir --redirects 3 --tee 3; the agent receives SIGTERM mid-run (preemption)
R=/work/blind/r3/runs/015_preempt_sigterm; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job015; mkdir -p $J; cp /work/blind/r3/gen/015_preempt_sigterm.py $J/train_conv.py
cd $J
/work/blind/venv/bin/torchrun --nproc-per-node 2 --master-port 29515 --log-dir $J/logs --redirects 3 --tee 3 \
  train_conv.py > $R/console.log 2>&1 &
TP=$!
sleep 16
kill -TERM $TP
wait $TP; echo "exit $?"
