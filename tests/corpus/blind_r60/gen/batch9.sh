#!/bin/bash
source /work/blind/r60/gen/lib.sh
source /work/blind/slurm60/env.sh
cd /tmp
waitj() { while squeue -h -j $1 2>/dev/null | grep -q .; do sleep 2; done; }
# 065: Slurm per-task output files (srun -o rank-%t.log): the rank is only in the file name
D=$(mk 065); mkdir -p $D/job_logs
cat > /tmp/b60_sj65.sh <<EOS
#!/bin/bash
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29765 INIT_METHOD=env:// OMP_NUM_THREADS=1 WORLD_SIZE=\$SLURM_NTASKS
srun -o $D/job_logs/rank-%t.log bash -c 'export RANK=\$SLURM_PROCID LOCAL_RANK=\$SLURM_LOCALID; exec /work/blind/torchenv/bin/python /work/blind/r60/gen/train.py'
EOS
jid=$(MODE=dtype FAIL_RANK=2 FAIL_STEP=3 FMT=norank TORCH_SHOW_CPP_STACKTRACES=0 sbatch --parsable -J train065 -n 3 -c 1 --time=5 -o $D/job_logs/slurm-%j.out /tmp/b60_sj65.sh)
waitj $jid; echo "065 done $jid"
# 067: @record -> error.json in the log dir
D=$(mk 067); MODE=shape FAIL_RANK=1 FAIL_STEP=2 FMT=logB $TR --nproc-per-node 2 --master-port 29667 --log-dir /tmp/b60_ld67 $G/rec.py > $D/console.log 2>&1; echo "067 rc=$?"
find /tmp/b60_ld67 -name error.json -exec cp {} $D/error.json \; ; rm -rf /tmp/b60_ld67
echo batch9 done
