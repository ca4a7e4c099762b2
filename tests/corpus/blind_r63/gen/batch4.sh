source /work/blind/r63/gen/common.sh
r042() { rd 042; rm -f /tmp/flag63_once; FAULT=once_crash FAULT_RANK=0 FAULT_STEP=6 LOGFMT=logging $TR --nnodes 1 --nproc-per-node 2 --max-restarts 1 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29642 $G/ddp.py > console.log 2>&1; }
"$@"
