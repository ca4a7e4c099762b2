source /work/blind/r29/gen/lib.sh; mk 041; cd $RAW/041
# 8 ranks via sbatch + srun -n 8 --label; rank 6 fails with an eval ZeroDivisionError at step 600; user hands over a grep of the log
cat > job.sbatch <<'SB'
#!/bin/bash
#SBATCH -J tinylm-8r
#SBATCH -n 8
#SBATCH --time=5
#SBATCH -o /work/blind/r29/gen/raw/041/tinylm-8r-%j.out
export OMP_NUM_THREADS=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=35410 PYTHONUNBUFFERED=1 TORCH_CPP_LOG_LEVEL=INFO
export LOGFMT=iso FAULT=eval_exc FAULT_RANK=6 FAULT_STEP=600 EPOCHS=2 STEPS=350 EVAL_EVERY=150 LOG_EVERY=5 STEP_SLEEP=0 CKPT_EVERY=1000 PG_TIMEOUT=60 CKPT_DIR=/work/blind/r29/gen/raw/041/ckpt
srun --label -n 8 /work/blind/venv/bin/python /work/blind/r29/gen/train.py
SB
J=$(sbatch --parsable job.sbatch); echo $J > jobid
while squeue -h -j $J 2>/dev/null | grep -q .; do sleep 2; done
scontrol show job $J > job.txt
grep -E -C 3 "error|Error|Traceback" tinylm-8r-$J.out > $RUNS/041/grep_context.txt
