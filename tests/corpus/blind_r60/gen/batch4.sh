#!/bin/bash
# framework runs: Lightning, HF Trainer, accelerate, mp.spawn
source /work/blind/r60/gen/lib.sh
cd /tmp
# Lightning (its own launcher spawns the extra ranks)
D=$(mk 050); rm -rf /tmp/b60lit; LMODE=healthy MASTER_PORT=29850 $PY $G/lit.py > $D/console.log 2>&1; echo "050 rc=$?"
D=$(mk 051); rm -rf /tmp/b60lit; LMODE=val_exc FAIL_RANK=1 NDEV=3 MASTER_PORT=29851 $PY $G/lit.py > $D/console.log 2>&1; echo "051 rc=$?"
mkdir -p /tmp/b60ro2; mount -t tmpfs -o ro,size=1m tmpfs /tmp/b60ro2
D=$(mk 052); rm -rf /tmp/b60lit; LMODE=healthy PBAR=0 CKPT_DIR=/tmp/b60ro2/lightning/ckpts MASTER_PORT=29852 $PY $G/lit.py > $D/console.log 2>&1; echo "052 rc=$?"
umount /tmp/b60ro2
# HF Trainer under torchrun
D=$(mk 053); rm -rf /tmp/b60hf; HMODE=healthy $TR --nproc-per-node 2 --master-port 29853 $G/hf.py > $D/console.log 2>&1; echo "053 rc=$?"
D=$(mk 054); rm -rf /tmp/b60hf; HMODE=collate FAIL_RANK=1 $TR --nproc-per-node 2 --master-port 29854 --log-dir $D/logs --tee 3 $G/hf.py > $D/console.log 2>&1; echo "054 rc=$?"
mkdir -p /tmp/b60full2; mount -t tmpfs -o size=150k tmpfs /tmp/b60full2
D=$(mk 055); HMODE=healthy NOTQDM=1 OUT=/tmp/b60full2/hf_out $TR --nproc-per-node 2 --master-port 29855 $G/hf.py > $D/console.log 2>&1; echo "055 rc=$?"
umount /tmp/b60full2
# accelerate launch
D=$(mk 056); AMODE=healthy $PY -m accelerate.commands.launch --cpu --multi_gpu --num_processes 2 --num_machines 1 --mixed_precision no --dynamo_backend no --main_process_port 29856 $G/acc.py > $D/console.log 2>&1; echo "056 rc=$?"
D=$(mk 057); AMODE=kv FAIL_RANK=2 $PY -m accelerate.commands.launch --cpu --multi_gpu --num_processes 3 --num_machines 1 --mixed_precision no --dynamo_backend no --main_process_port 29857 $G/acc.py > $D/console.log 2>&1; echo "057 rc=$?"
# mp.spawn + tqdm on all ranks
D=$(mk 058); SMODE=varlen FAIL_RANK=2 PORT=29858 $PY $G/spawn.py > $D/console.log 2>&1; echo "058 rc=$?"
D=$(mk 059); SMODE=healthy WORLD=2 PORT=29859 $PY $G/spawn.py > $D/console.log 2>&1; echo "059 rc=$?"
D=$(mk 060); SMODE=abort_shutdown FAIL_RANK=1 PORT=29860 $PY $G/spawn.py > $D/console.log 2>&1; echo "060 rc=$?"
echo batch4 done
