#!/bin/bash
# each task sources the profile of "its node"; task 3 runs on node b, whose profile was regenerated without DATASET_ROOT
R=/work/blind/r9/runs/007_env_missing_task; rm -rf $R; mkdir -p $R/profiles $R/out; cd $R
printf 'export DATASET_ROOT=/datasets/c4-en\nexport HF_HOME=/scratch/hf\n' > profiles/node-a.env
printf 'export HF_HOME=/scratch/hf\n' > profiles/node-b.env
cat > $R/task_wrapper.sh <<'W'
#!/bin/bash
if [ "$SLURM_PROCID" -lt 3 ]; then source $PROFILES/node-a.env; else source $PROFILES/node-b.env; fi
exec /work/blind/venv/bin/python -u /work/blind/r9/gen/007_env_missing_task.py
W
chmod +x $R/task_wrapper.sh
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1 MASTER_PORT=30008 PROFILES=$R/profiles
timeout 90 srun -p debug -n 4 -J pretrain --output=$R/out/pretrain-%j-task%t.out --error=$R/out/pretrain-%j-task%t.err $R/task_wrapper.sh > $R/srun_console.log 2>&1
echo "srun exit=$?" > $R/srun_exit.txt
