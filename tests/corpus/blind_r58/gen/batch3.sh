#!/bin/bash
R=/work/blind/r58/gen/run.sh
$R 042 'torchrun --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29542 $T --mode valueerror --bad 3 --fmt logging > node0.log 2>&1 & sleep 1; torchrun --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29542 $T --mode valueerror --bad 3 --fmt logging > node1.log 2>&1; wait'
$R 049 'torchrun --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29549 $T --mode healthy_metrics --fmt print > node0.log 2>&1 & sleep 1; torchrun --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29549 $T --mode healthy_metrics --fmt print > node1.log 2>&1; wait'
$R 043 'torchrun --nproc-per-node 3 --master-port 29543 --log-dir tr_logs $T --mode healthy_scary --bad 1 --fmt logging'
$R 044 'torchrun --nproc-per-node 3 --master-port 29544 --max-restarts 1 $T --mode restart_once --bad 1 --fmt print --outdir /tmp/b58_044; rm -rf /tmp/b58_044'
$R 046 'python $T --spawn 2 --port 29546 --mode healthy_scary --bad 0 --fmt tqdm --steps 20 --sleep 0.1'
$R 047 'torchrun --nproc-per-node 4 --master-port 29547 $T --mode healthy_metrics --fmt json'
$R 050 'torchrun --nproc-per-node 3 --master-port 29550 $T --mode healthy_scary --bad 2 --fmt file --outdir logs; zip -qr logs.zip logs && rm -rf logs'
$R 052 'torchrun --nproc-per-node 3 --master-port 29552 $T --mode uneven --bad 2 --at 7 --fmt print'
$R 040 'FAIL_RANK=1 MASTER_PORT=29540 python /work/blind/r58/gen/lit.py'
$R 048 'MASTER_PORT=29548 python /work/blind/r58/gen/lit.py'
$R 041 'BAD_RANK=1 accelerate launch --cpu --num_processes 2 --num_machines 1 --mixed_precision no --dynamo_backend no --main_process_port 29541 /work/blind/r58/gen/acc.py'
