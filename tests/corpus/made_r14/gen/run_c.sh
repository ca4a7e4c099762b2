# the job script hard-codes WORLD_SIZE=4 but the allocation gives 3 tasks
cd /work/repro && rm -rf c && mkdir c
export MASTER_ADDR=127.0.0.1 MASTER_PORT=23103 WORLD_SIZE=4
for r in 0 1 2; do RANK=$r LOCAL_RANK=$r /work/tvenv/bin/python rdzv.py > c/train-$r.out 2>&1 & done
wait
