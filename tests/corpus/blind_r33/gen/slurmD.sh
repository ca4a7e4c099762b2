#!/bin/bash
export SLURM_CONF=/work/blind/r33/slurm/slurm.conf
D=/tmp/r33w/slurm; mkdir -p $D; cd $D
waitjob(){ while squeue -h -j $1 2>/dev/null | grep -q .; do sleep 2; done; }
# s1: dtype mismatch on rank 2 of 3, srun
j=$(sbatch --parsable -n 3 --export=ALL,MASTER_PORT=39301,FAULT=dtype,FAULT_RANK=2 /work/blind/r33/gen/job.sbatch); echo "s1 $j"; waitjob $j
# s2: time limit 1 minute
j=$(sbatch --parsable -n 2 --time=1 --export=ALL,MASTER_PORT=39302,STEPS=100000,STEP_SLEEP=0.5 /work/blind/r33/gen/job.sbatch); echo "s2 $j"; waitjob $j
# s3: scancel after 25 s
j=$(sbatch --parsable -n 2 --export=ALL,MASTER_PORT=39303,STEPS=100000,STEP_SLEEP=0.5 /work/blind/r33/gen/job.sbatch); echo "s3 $j"; sleep 25; scancel $j; waitjob $j
# s4: healthy 2 tasks
j=$(sbatch --parsable -n 2 --export=ALL,MASTER_PORT=39304,STEPS=30,SAVE=1,CKPT_DIR=/tmp/r33ck_s4 /work/blind/r33/gen/job.sbatch); echo "s4 $j"; waitjob $j
# s5: sigkill of rank 0 of 4 (abort variant: os.abort on rank 3)
j=$(sbatch --parsable -n 4 --export=ALL,MASTER_PORT=39305,FAULT=abort,FAULT_RANK=3,PG_TIMEOUT=30 /work/blind/r33/gen/job.sbatch); echo "s5 $j"; waitjob $j
# s6: hang of rank 1 of 3 under srun, others time out
j=$(sbatch --parsable -n 3 --export=ALL,MASTER_PORT=39306,FAULT=hang,FAULT_RANK=1,PG_TIMEOUT=20,HANG_FIFO=/tmp/r33fifo6 /work/blind/r33/gen/job.sbatch); echo "s6 $j"; waitjob $j
# s7: port in use under srun
/work/blind/venv/bin/python -c "import socket,time;s=socket.socket();s.bind(('0.0.0.0',39307));s.listen();time.sleep(90)" & H=$!
sleep 1
j=$(sbatch --parsable -n 2 --time=2 --export=ALL,MASTER_PORT=39307,PG_TIMEOUT=30 /work/blind/r33/gen/job.sbatch); echo "s7 $j"; waitjob $j
kill $H
for j in $(ls *.out | sed 's/.*-\([0-9]*\).out/\1/'); do scontrol show job $j > job-$j.scontrol 2>&1; done
echo SDONE
