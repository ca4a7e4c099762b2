#!/usr/bin/env bash
# torchrun 4 ranks, no --log-dir. Rank 3's shard metadata says resolution 256 (others 32);
# the decoder memoizes every decoded sample, so rank 3's RSS grows ~8 MB/step.
# oom_watchdog.py (stand-in for the kernel OOM killer; its own output goes to a side file,
# not to the console) SIGKILLs any worker above 1100 MB RSS -> rank 3 dies with -9.
set -u
NAME=004_oom_killed_rss
R1=/work/blind/r1
PY=/work/blind/venv/bin
RUN=$R1/runs/$NAME
WORK=/tmp/blindwork/exp${NAME%%_*}
rm -rf "$RUN" "$WORK"; mkdir -p "$RUN" "$WORK/data"
cp $R1/gen/$NAME.py $WORK/train.py
cd $WORK
for r in 0 1 2 3; do
  res=32; name="web-$r"; [ $r = 3 ] && res=256 && name="scan-hires-0"
  echo "{\"name\": \"$name\", \"resolution\": $res, \"seed\": $((r+11))}" > data/meta_$r.json
done
$PY/python $R1/gen/oom_watchdog.py "$WORK/train.py" 1100 170 2> $WORK/watchdog.err &
WD=$!
timeout 180 $PY/torchrun --nproc-per-node 4 --master-port 29604 $WORK/train.py --data data 2>&1 | tee $RUN/console.log
echo "exit=${PIPESTATUS[0]}" >&2
wait $WD
cat $WORK/watchdog.err >&2
