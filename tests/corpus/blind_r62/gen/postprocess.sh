#!/bin/bash
# Post-processing done after the runs (only copying/archiving what the runs wrote):
#  - 017: kernel log lines of the cgroup OOM kill of rank 2 (dmesg -T, lines from 'invoked oom-killer' to 'Killed process <pid>'),
#         copied as runs/017/dmesg.txt   (sed -n 528,606p of `dmesg -T` at the time)
#  - 044: console.log + torchrun --log-dir tree archived as torchrun_job044_logs.tar.gz
#  - 046: slurm-17.out + per-rank oom2-17-*.out zipped as job17_logs.zip
#  - labels: python labels_src.py | sort > ../labels.jsonl
cd /work/blind/r62/runs/044 && tar czf torchrun_job044_logs.tar.gz console.log logs && rm -rf console.log logs
cd /work/blind/r62/runs/046 && python3 -c "import zipfile,os; z=zipfile.ZipFile('job17_logs.zip','w',zipfile.ZIP_DEFLATED); [z.write(f) for f in sorted(os.listdir('.')) if f.endswith('.out')]; z.close()" && rm -f *.out
