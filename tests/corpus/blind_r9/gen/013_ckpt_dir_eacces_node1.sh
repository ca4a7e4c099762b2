#!/bin/bash
# the shared checkpoint dir belongs to the service account (uid 65534, 0755); node 1 mounts the share with root_squash,
# so its root-run job has no override there (simulated by dropping CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH for node 1's agent)
R=/work/blind/r9/runs/013_ckpt_dir_eacces_node1; rm -rf $R; mkdir -p $R/shared_run/checkpoints; chmod 755 $R $R/shared_run $R/shared_run/checkpoints; chown 65534:65534 $R/shared_run/checkpoints; cd $R
export OMP_NUM_THREADS=1 RUN_DIR=$R/shared_run
timeout 90 /work/blind/venv/bin/torchrun --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 30014 --tee 3 \
    /work/blind/r9/gen/013_ckpt_dir_eacces_node1.py > $R/node0-console.log 2>&1 &
cd /tmp
timeout 90 setpriv --bounding-set -dac_override,-dac_read_search --inh-caps -dac_override,-dac_read_search \
   /work/blind/venv/bin/torchrun --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 30014 --tee 3 \
    /work/blind/r9/gen/013_ckpt_dir_eacces_node1.py > $R/node1-console.log 2>&1 &
wait
