source /work/blind/r64/gen/common.sh
d050(){ w 050; DATALOADER=1 FAULT=dl_bus FAULT_RANK=1 FAULT_STEP=6 STEPS=30 TMO=15 LOGFMT=prefix timeout 120 $TR --nproc-per-node 2 --master-port 29750 $G/train.py > $R/050/console.log 2>&1; echo "050 rc=$?"; }
d051(){ w 051; HF_HOME=$W/hf timeout 300 $T/accelerate launch --multi_gpu --cpu --num_processes 2 --main_process_port 29751 $G/acc_hub.py > $R/051/console.log 2>&1; echo "051 rc=$?"; }
d006(){ w 006; SCALER=1 INF_STEPS=3,4,17 FAULT_RANK=1 STEPS=40 LOGFMT=logging timeout 120 $TR --nproc-per-node 2 --master-port 29706 $G/train.py > $R/006/console.log 2>&1; echo "006 rc=$?"; }
d008(){ w 008; STEPS=25 EVAL_EVERY=5 timeout 120 $TR --nproc-per-node 2 --master-port 29708 $G/dl_then_train.py > $R/008/console.log 2>&1; echo "008 rc=$?"; }
for r in "$@"; do d$r; done
