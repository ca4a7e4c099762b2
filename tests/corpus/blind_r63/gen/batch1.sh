source /work/blind/r63/gen/common.sh
r001() { rd 001; FAULT=warnings LOGFMT=logging $TR --nproc-per-node 2 --master-port 29601 $G/ddp.py > console.log 2>&1; }
r002() { rd 002; rm -f /tmp/flag002; FAULT=nan_data FAULT_RANK=1 FAULT_STEP=6 $TR --nproc-per-node 3 --master-port 29602 $G/ddp.py > console.log 2>&1; }
r003() { rd 003; FAULT=hang_sleep FAULT_RANK=2 FAULT_STEP=4 PG_TIMEOUT=15 $TR --nproc-per-node 3 --master-port 29603 $G/ddp.py > console.log 2>&1; }
r004() { rd 004; FAULT=mismatch FAULT_RANK=1 FAULT_STEP=3 TORCH_DISTRIBUTED_DEBUG=DETAIL PG_TIMEOUT=15 $TR --nproc-per-node 3 --master-port 29604 $G/ddp.py > console.log 2>&1; }
"$@"
