#!/bin/bash
source /work/blind/r59/gen/common.sh
ACC=/work/blind/torchenv/bin/accelerate
# two agents (static rdzv, --node-rank) on this host
mk 040; SCEN=shape FAIL_RANK=3 FAIL_STEP=3 LOGFMT=logging
 export SCEN FAIL_RANK FAIL_STEP LOGFMT
 $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29940 $W > node0.log 2>&1 &
 $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29940 $W > node1.log 2>&1; wait
 unset SCEN FAIL_RANK FAIL_STEP LOGFMT
mk 041; export SCEN=sleep FAIL_RANK=1 FAIL_STEP=3 PG_TIMEOUT=15 LOGFMT=prefix
 $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29941 --log-dir logs/node0 --redirects 3 $W > node0.log 2>&1 &
 $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29941 --log-dir logs/node1 --redirects 3 $W > node1.log 2>&1; wait
 unset SCEN FAIL_RANK FAIL_STEP PG_TIMEOUT LOGFMT
# rendezvous never completes: only one of two nodes shows up
mk 042; $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29942 --rdzv-id job42 --rdzv-conf join_timeout=20 $W > console.log 2>&1
# port in use on the master port
$PY /work/blind/r59/gen/holdport.py 29943 30 & HP=$!; sleep 1
mk 043; LOGFMT=prefix $TR --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 29943 $W > console.log 2>&1
kill $HP; wait $HP 2>/dev/null
mk 044; FAIL_RANK=1 $PY /work/blind/r59/gen/lt.py 3 > console.log 2>&1
mk 045; FAIL_RANK=1 $ACC launch --multi_gpu --num_processes 3 --num_machines 1 --main_process_port 29945 /work/blind/r59/gen/acc.py > console.log 2>&1
# healthy
mk 046; STEPS=6 LOGFMT=logging EXTRA_MSG="UserWarning: torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly||metrics: train/error_rate=0.184 eval/error_count=37 nan_count=0||skipping corrupted sample idx=8812 (caught ValueError: could not convert string to float), continuing" $TR --nproc-per-node 4 --master-port 29946 --log-dir logs --tee 3 $W > console.log 2>&1
mk 047; RESTART_FAIL_ONLY_FIRST=1 SCEN=value_error FAIL_RANK=2 FAIL_STEP=2 STEPS=6 LOGFMT=prefix $TR --nproc-per-node 3 --master-port 29947 --max-restarts 1 $W > console.log 2>&1
mk 048; STEPS=6 LOGFMT=json EXTRA_MSG="Retrying upload of metrics after error: ConnectionResetError(104, 'Connection reset by peer') (attempt 1/5)||upload succeeded on attempt 2||grad scaler: found inf in gradients, skipping step, reducing loss scale to 32768.0" $PY /work/blind/r59/gen/spawn.py 3 29948 > console.log 2>&1
mk 049; export STEPS=6 LOGFMT=prefix2
 $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29949 --log-dir logs/node0 $W > node0.log 2>&1 &
 $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29949 --log-dir logs/node1 $W > node1.log 2>&1; wait
 unset STEPS LOGFMT
mk 050; $PY /work/blind/r59/gen/lt.py 2 > console.log 2>&1
mk 051; STEPS=6 LOGFMT=plain NO_DDP=1 TORCH_DISTRIBUTED_DEBUG=DETAIL EXTRA_MSG="Traceback (most recent call last):||  File \"/opt/app/hub.py\", line 88, in fetch||requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='hub.internal', port=443): Read timed out. (read timeout=10)||fetch failed, retrying in 2s (1/3)||fetch ok" $TR --nproc-per-node 3 --master-port 29951 $W > console.log 2>&1
