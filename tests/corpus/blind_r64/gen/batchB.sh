source /work/blind/r64/gen/common.sh
b003(){ w 003; SPAWN=1 NPROCS=2 MASTER_PORT=29703 LOGFMT=json STEPS=40 EVAL_EVERY=10 timeout 120 $PY $G/train.py > $R/003/train.jsonl 2>&1; echo "003 rc=$?"; }
b013(){ w 013; SPAWN=1 NPROCS=2 MASTER_PORT=29713 DATALOADER=1 FAULT=dl_bus FAULT_RANK=1 FAULT_STEP=6 STEPS=30 TMO=15 LOGFMT=prefix timeout 120 $PY $G/train.py > $R/013/console.log 2>&1; echo "013 rc=$?"; }
b016(){ w 016; SPAWN=1 NPROCS=3 MASTER_PORT=29716 FAULT=spin FAULT_RANK=0 FAULT_STEP=9 STEPS=30 TMO=10 LOGFMT=logging_rank timeout 120 $PY $G/train.py > $R/016/console.log 2>&1; echo "016 rc=$?"; }
b038(){ w 038; SPAWN=1 NPROCS=2 MASTER_PORT=29738 FAULT=sigbus FAULT_RANK=0 FAULT_STEP=14 STEPS=30 TMO=15 timeout 120 $PY $G/train.py > $R/038/console.log 2>&1; echo "038 rc=$?"; }
b040(){ w 040; SPAWN=1 NPROCS=2 MASTER_PORT=29740 FAULT=dtype FAULT_RANK=1 FAULT_STEP=19 EVAL_EVERY=10 STEPS=40 TMO=15 LOGFMT=logging timeout 120 $PY $G/train.py > $R/040/console.log 2>&1; echo "040 rc=$?"; }
b004(){ w 004; MASTER_PORT=29704 timeout 300 $PY $G/lit.py > $R/004/console.log 2>&1; echo "004 rc=$?"; }
b039(){ w 039; MASTER_PORT=29739 MODE=val_shape FAULT_RANK=1 EPOCHS=2 timeout 300 $PY $G/lit.py > $R/039/console.log 2>&1; echo "039 rc=$?"; }
b045(){ w 045; MASTER_PORT=29745 MODE=gpu timeout 300 $PY $G/lit.py > $R/045/console.log 2>&1; echo "045 rc=$?"; }
b007(){ w 007; OUT=$W/out timeout 300 $TR --nproc-per-node 2 --master-port 29707 $G/hf_trainer.py > $R/007/console.log 2>&1; echo "007 rc=$?"; }
b022(){ w 022; HF_HOME=$W/hf timeout 300 $T/accelerate launch --cpu --num_processes 2 --main_process_port 29722 $G/acc_hub.py > $R/022/console.log 2>&1; echo "022 rc=$?"; }
for r in "$@"; do b$r; done
