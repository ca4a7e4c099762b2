#!/usr/bin/env bash
# Cuts what a user would hand in from the raw runs ($RAW, made by make_runs.sh) into runs/NNN/.
set -euo pipefail
RAW=${RAW:-/work/blind/r48/raw}
OUT=/work/blind/r48/set/runs
rm -rf "$OUT"; mkdir -p "$OUT"
v() { mkdir -p "$OUT/$1"; echo "$OUT/$1"; }
logdir() { ls -d "$RAW/$1"/logs/*/ | head -1; }   # the torchrun --log-dir run directory (<run_id>/)

# ---- failing ----
d=$(v 001); cp "$RAW/r_data/console.log" "$d/console.log"                              # full --tee console
d=$(v 002); L=$(logdir r_data); mkdir -p "$d/logs/$(basename "$L")/attempt_0"          # culprit's per-rank dir only
cp -r "$L/attempt_0/2" "$d/logs/$(basename "$L")/attempt_0/"
d=$(v 003); cp "$RAW"/r_oom/slurm-*.out "$d/"                                          # sbatch output (srun --label)
d=$(v 004); cp "$RAW/r_hang/console.log" "$d/console.log"                              # full console
d=$(v 005); tail -n 170 "$RAW/r_hang/console.log" > "$d/console.log"                   # last 170 lines only (the launcher summary)
d=$(v 006); gzip -c "$RAW/r_segv/console.log" > "$d/console.log.gz"                    # gzipped console
d=$(v 007); cp "$RAW/r_early/node0.console.log" "$d/node0.log"; cp "$RAW/r_early/node1.console.log" "$d/node1.log"
d=$(v 008); cp "$RAW/r_early/node0.console.log" "$d/node0.log"                         # the bystander node only
d=$(v 009); L=$(logdir r_mismatch); tar -C "$(dirname "$L")" -czf "$d/rank_logs.tar.gz" "$(basename "$L")"   # per-rank files, no console
d=$(v 010); cp "$RAW/r_mismatch/console.log" "$d/launcher.log"                         # launcher output only (no --tee)
d=$(v 011); cp "$RAW"/r_timelimit/slurm-*.out "$d/"
d=$(v 012); cp "$RAW"/r_cancel/slurm-*.out "$d/"
d=$(v 013); cp "$RAW/r_rdzv/console.log" "$d/console.log"
d=$(v 014); cp "$RAW/r_port/console.log" "$d/console.log"
d=$(v 015); cp "$RAW/r_perm/console.log" "$d/console.log"
d=$(v 016); mkdir -p "$d/out"; cp "$RAW"/r_asyncfull/out-*.log "$d/out/"; cp "$RAW/r_asyncfull/srun.console.log" "$d/srun.log"
d=$(v 017); cp "$RAW/r_asyncfull/out-3.log" "$d/out-3.log"                             # a bystander task's file only
d=$(v 018); tail -n 150 "$RAW/r_nan/console.log" > "$d/console.log"                    # last 150 lines
d=$(v 019); L=$(logdir r_nan); (cd "$(dirname "$L")" && zip -qr "$d/logs.zip" "$(basename "$L")")
d=$(v 020); cp "$RAW/r_worker/console.log" "$d/console.log"
d=$(v 021); cp "$RAW/r_emfile/console.log" "$d/console.log"
d=$(v 022); cp "$RAW/r_import/console.log" "$d/console.log"
d=$(v 023); gzip -c "$RAW/r_corrupt/console.log" > "$d/train.log.gz"
d=$(v 024); cp "$RAW"/r_shape/slurm-*.out "$d/"; L=$(logdir r_shape); mkdir -p "$d/logs"; cp -r "$L" "$d/logs/"
d=$(v 025); cp "$RAW/r_ckpthang/console.copied_midrun.log" "$d/console.log"            # copied while hung
d=$(v 026); cp "$RAW/r_hub/console.log" "$d/console.log"

# ---- healthy ----
d=$(v 027); cp "$RAW/h_tee/console.log" "$d/console.log"
d=$(v 028); L=$(logdir h_tee); tar -C "$(dirname "$L")" -czf "$d/run_logs.tar.gz" "$(basename "$L")"
d=$(v 029); cp "$RAW/h_midrun/console.copied_midrun.log" "$d/console.log"              # copied mid-run
d=$(v 030); n=$(wc -l < "$RAW/h_midrun/console.log"); tail -n $(( n * 6 / 10 )) "$RAW/h_midrun/console.log" > "$d/console.log"  # first 40% rotated away
d=$(v 031); gzip -c "$RAW/h_tqdm/console.log" > "$d/console.log.gz"
d=$(v 032); (cd "$RAW/h_nodes" && zip -qr "$d/job.zip" node0 node1 node0.console.log node1.console.log)
d=$(v 033); cp "$RAW"/h_sbatch/slurm-*.out "$d/"; cp "$RAW"/h_sbatch/task-*.log "$d/"
d=$(v 034); cp "$RAW/h_resume_ok/console.log" "$d/train.log"   # (was h_restart: it failed, see 039)
d=$(v 035); L=$(ls -d "$RAW"/h_logdir8/midcopy/logs/*/); mkdir -p "$d/attempt_0"; cp -r "$L/attempt_0/5" "$d/attempt_0/"   # one rank's files, mid-run
d=$(v 036); cp "$RAW/h_logdir8/console.log" "$d/console.log"                           # launcher output only, finished
d=$(v 037); tail -n 40 "$RAW/h_midrun2/console.log" > "$d/console.log"                  # last 40 lines of a finished run
d=$(v 038); (cd "$RAW/h_logdir8" && tar -czf "$d/job_logs.tar.gz" logs console.log)   # finished 8-rank run, packaged
ls "$OUT"

# ---- added after the first runs ----
d=$(v 039); cp "$RAW/r_restartfail/console.log" "$d/console.log"                       # failing: restart did not recover
d=$(v 040); cp "$RAW/h_midrun2/console.copied_midrun.log" "$d/console.log"             # healthy, copied mid-run
# (h_restart2 failed the same way as r_restartfail - gloo connectFullMesh refused on attempt 1 - and is not used)
d=$(v 041); L=$(logdir h_tee); mkdir -p "$d/$(basename "$L")/attempt_0"; cp -r "$L/attempt_0/1" "$d/$(basename "$L")/attempt_0/"   # one rank's files of a finished run
ls "$OUT" | wc -l
