#!/bin/bash
# sbatch running torchrun (4 workers) inside the allocation; no TORCH_DISTRIBUTED_DEBUG. At step 12 rank 1
# calls broadcast (an old code path for "sync best metric") while ranks 0,2,3 call all_reduce.
NAME=028_bcast_vs_allreduce_rank1; source /work/blind/r16/gen/common.sh
cat > tr.sbatch <<EOS
#!/bin/bash
#SBATCH -J metric-sync
#SBATCH -N 1
#SBATCH -c 4
#SBATCH -o %x-%j.out
export FAULT=coll_op FAULT_RANK=1 FAULT_STEP=12 STEPS=60 LOGFMT=logging
srun $TORCHRUN --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:21028 $TRAIN
EOS
sbatch --wait tr.sbatch; rm tr.sbatch
