#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 007_mpspawn_indim_config
python $R/gen/mkdata.py data 4 --n 1000
cat > $WD/config.json <<EOC
{"grad_clip": 1.0, "warmup_steps": 5}
EOC
cd $WD; MASTER_PORT=31070 NPROCS=4 OMP_NUM_THREADS=1 python $R/gen/spawn_main.py --data data --in-dim 20 --hidden 64 --steps 100 --config config.json > $RUN/train_output.log 2>&1
echo exit $?
