#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 016_sbatch_node_down
python $R/gen/mkdata.py data 4 --n 4000
cat > $WD/job.sbatch <<EOS
#!/bin/bash
#SBATCH -J vit-tiny
#SBATCH -n 4
#SBATCH --overcommit
#SBATCH --no-requeue
#SBATCH -o $RUN/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=31160 OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
srun --label python $T --data data --steps 3000 --log-every 20 --step-sleep 0.1 --log-style print
EOS
J=$(sbatch --parsable --chdir=$WD $WD/job.sbatch); echo job $J
until grep -q "step   160 " $RUN/slurm-$J.out 2>/dev/null; do sleep 2; done
# an admin (or the health check) marks the node down under the job
scontrol update nodename=vm state=down reason="hc: PSU fault"
sleep 25; squeue -j $J; scontrol show job $J | grep -i "jobstate\|reason"
sinfo -R
scontrol show job $J > $RUN/scontrol_show_job_$J.txt
scontrol update nodename=vm state=resume; sleep 3; sinfo
