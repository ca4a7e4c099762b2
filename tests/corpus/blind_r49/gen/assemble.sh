#!/usr/bin/env bash
# Copy each generated run's out/ directory to ../runs/NNN in a fixed shuffled order (seed 49).
set -eu
W=${W:-/tmp/r49w}
R=$(cd "$(dirname "$0")/.." && pwd)/runs
ORDER="caught bgthread rdzv accel tqdm mismatch enospc nan eval sigterm profile hang join workers early accum data lightning ddpdebug bf16 oom infer long multinode timelimit download compile hf wandb resume"
i=0
for n in $ORDER; do
  i=$((i+1)); d=$(printf "%s/%03d" "$R" $i)
  rm -rf "$d"; mkdir -p "$d"; cp -r "$W/$n/out/." "$d/"
  find "$d" -type f -empty -delete
  echo "$(basename $d) $n"
done
# scrub working-directory names (they named the scenario) from the log text
grep -rlE "/tmp/r49w/|/work/blind/r49/set/gen|job-(enospc|bf16|multinode|rdzv)" "$R" | while read f; do
  sed -i -E 's#/tmp/r49w/[a-z0-9]+#/scratch/exp#g; s#/work/blind/r49/set/gen/[a-z_0-9]+\.py#/home/user/proj/train.py#g; s#/work/blind/r49/set/gen#/home/user/proj#g; s#job-(enospc|bf16|multinode|rdzv)#job-7731#g' "$f"; done
