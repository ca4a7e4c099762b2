#!/bin/bash
# plain bash loop launcher, one log file per rank
source /work/blind/r19/gen/common.sh
RUN=011_metrics_hook; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
cd $W/$RUN
cat > $W/$RUN/upload_metrics.sh <<'EOS'
#!/bin/bash
# ship metrics to the collector (follows the file until the collector acks)
touch /work/blind/r19/work/011_metrics_hook/metrics.csv
tail -f /work/blind/r19/work/011_metrics_hook/metrics.csv > /dev/null
EOS
bash $G/launch_loop.sh 3 24011 $OUT "$PY $G/train.py --steps 70 --fail subproc_hang --fail-rank 1 --fail-step 26 --timeout 30 --run-id $RUN --fmt plain" > $OUT/launch.log 2>&1
