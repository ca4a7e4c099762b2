#!/bin/bash
# single-node job using torch.multiprocessing.spawn; the node has 3 usable devices in this allocation,
# the config keeps tensor_model_parallel_size=2 from the 4-device recipe.
R=/work/blind/r11; RUN=$R/runs/007_tp_divisibility
rm -rf $RUN && mkdir -p $RUN && cd $RUN
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/python $R/gen/007_tp_divisibility.py --nprocs 3 --tensor-parallel-size 2 --port 31107 > console.log 2>&1
