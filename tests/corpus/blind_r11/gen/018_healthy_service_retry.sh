#!/bin/bash
# torchrun with --log-dir and --tee 3, 2 workers. The label service sidecar is started together with the
# job and takes ~20 s to come up: the workers log connection-refused tracebacks while they retry, then train
# to completion.
R=/work/blind/r11; RUN=$R/runs/018_healthy_service_retry; S=$R/scratch/018
rm -rf $RUN $S && mkdir -p $RUN $S && cd $RUN
echo '["negative", "neutral", "positive"]' > $S/labels.json
( sleep 20; exec timeout 70 /work/blind/venv/bin/python -m http.server 31918 --bind 127.0.0.1 --directory $S > /dev/null 2>&1 ) &
SIDE=$!
export OMP_NUM_THREADS=1 LABEL_SERVICE=http://127.0.0.1:31918
timeout 90 /work/blind/venv/bin/torchrun --nnodes 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 31118 \
  --log-dir $RUN/elastic --tee 3 $R/gen/018_healthy_service_retry.py > console.log 2>&1
echo "torchrun exit $?"
kill $SIDE 2>/dev/null; pkill -P $SIDE 2>/dev/null; wait
rm -rf $S
