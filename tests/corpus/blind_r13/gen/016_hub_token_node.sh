#!/bin/bash
# node gpu-b's login profile does not export HUB_TOKEN (it was added to the shared profile after the
# node image was built); node gpu-a has it
R=/work/blind/r13/runs/016_hub_token_node
rm -rf $R /tmp/r13_016 && mkdir -p $R/gpu-a $R/gpu-b && cd $R
/work/blind/venv/bin/python /work/blind/r13/gen/016_hub_token_node_server.py 33116 2>/dev/null &
SRV=$!
sleep 1
export OMP_NUM_THREADS=1
COMMON="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:33016 --rdzv-id ft-intent-77 --redirects 3"
NODE_NAME=gpu-a HUB_TOKEN=hub_8f2a61c0e4 timeout 90 /work/blind/venv/bin/torchrun $COMMON --log-dir $R/gpu-a/worker_logs /work/blind/r13/gen/016_hub_token_node.py > /dev/null 2> $R/gpu-a/agent.log &
sleep 1
mkdir -p $R/gpu-b
NODE_NAME=gpu-b timeout 90 /work/blind/venv/bin/torchrun $COMMON --log-dir $R/gpu-b/worker_logs /work/blind/r13/gen/016_hub_token_node.py > /dev/null 2> $R/gpu-b/agent.log
wait %2
kill $SRV
rm -rf /tmp/r13_016
