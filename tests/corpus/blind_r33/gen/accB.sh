export PYTHONPATH=/work/blind/r33/pylib OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1
W=/tmp/r33w
OUT=/tmp/r33acc_ok timeout 120 /work/blind/venv/bin/torchrun --nproc-per-node 2 --master-port 39401 /work/blind/r33/gen/acc_train.py > $W/acc_ok.log 2>&1; echo "exit=$?" > $W/acc_ok.log.meta
OUT=/tmp/r33ro/acc timeout 120 /work/blind/venv/bin/torchrun --nproc-per-node 2 --master-port 39402 /work/blind/r33/gen/acc_train.py > $W/acc_ro.log 2>&1; echo "exit=$?" > $W/acc_ro.log.meta
