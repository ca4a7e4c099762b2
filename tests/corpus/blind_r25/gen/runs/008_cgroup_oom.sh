#!/bin/bash
# eval keeps every batch's softmax for a calibration metric (keep_predictions=true) -> eval RSS spike.
# rank 1's "node" has a small memory cgroup (520 MB; rank 1 is moved into it right after start-up); the kernel's
# memcg OOM killer SIGKILLs rank 1 during the first eval (step 20). torchrun 4 ranks.
# paste = console.log (whole) + dmesg.txt (the kernel's OOM lines for that cgroup, as `dmesg -T` shows them)
source /work/blind/r25/gen/common.sh
newrun 008_cgroup_oom
$PY $R25/gen/make_data.py $W/data/train --shards 4 --samples 128 >/dev/null
$PY $R25/gen/make_data.py $W/data/val --shards 4 --samples 1024 --seed 99 >/dev/null
MAX_STEPS=60 EVAL_EVERY=20 CKPT_EVERY=30 base_config config.toml
sed -i 's/^eval_batches = 4/eval_batches = 16\neval_batch_size = 64/' config.toml
cat >> config.toml <<EOT

[eval]
keep_predictions = ${KEEP:-true}
EOT
CG=/sys/fs/cgroup/memory/blind25_n1
mkdir -p $CG; echo $((${CG_LIMIT_MB:-520}*1024*1024)) > $CG/memory.limit_in_bytes
echo 0 > $CG/memory.swappiness 2>/dev/null
T0=$(awk '{print $1}' /proc/uptime)
$TORCHRUN --nproc-per-node 4 --master-port 30080 -m tinylm.train --config config.toml > $OUT/console.log 2>&1 &
TR=$!
for i in $(seq 100); do
  for p in $(pgrep -P $TR); do
    if tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx RANK=1; then echo $p > $CG/cgroup.procs; echo moved $p; break 2; fi
  done; sleep 0.1
done
wait $TR; echo rc=$?
dmesg -T | awk -v t0=$T0 '1' > $W/dmesg_all.txt
# keep only the kernel lines about this cgroup's OOM (what a user would grep for)
dmesg | awk -v t0=$T0 '{ts=substr($0,2,index($0,"]")-2)+0; if (ts>=t0) print NR}' > $W/newlines.txt
first=$(head -1 $W/newlines.txt)
[ -n "$first" ] && sed -n "${first},\$p" $W/dmesg_all.txt | grep -v 'blind2[0-46-9]' > $OUT/dmesg.txt
cat $CG/memory.max_usage_in_bytes; rmdir $CG 2>/dev/null
