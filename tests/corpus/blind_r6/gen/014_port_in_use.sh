#!/bin/bash
R=/work/blind/r6/runs/014_port_in_use; rm -rf $R; mkdir -p $R
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1
cd $R
# stale store server from an earlier job, still holding the port
/work/blind/venv/bin/python -c "
import torch.distributed as d, time, datetime
s = d.TCPStore('127.0.0.1', 29714, is_master=True, wait_for_workers=False, timeout=datetime.timedelta(seconds=300))
time.sleep(120)" > $R/stale_holder_ground_truth.log 2>&1 &
STALE=$!
sleep 4
timeout 85 srun -n 3 --label -J eval-sweep /work/blind/venv/bin/python /work/blind/r6/gen/014_port_in_use.py > $R/srun.log 2>&1
echo "exit=$?" > $R/exit_code
kill $STALE
