#!/bin/bash
# torchrun, 2 workers, --log-dir + --tee 3. After ~12 s, SIGTERM is sent to the torchrun agent.
set -u
RUN=/work/blind/r2/runs/011_preempt_sigterm
rm -rf $RUN; mkdir -p $RUN; cd $RUN
export OMP_NUM_THREADS=1
/work/blind/venv/bin/torchrun --nproc-per-node 2 --master-port 29621 --log-dir $RUN/logs --tee 3 \
    /work/blind/r2/gen/011_preempt_sigterm.py > console.log 2>&1 &
AGENT=$!
sleep 12
kill -TERM $AGENT
wait $AGENT
echo "exit code $?"
