#!/bin/bash
# usage: [ENV] srun.sh RUN OUTFILE srun-args...
RUN=$1; OUT=$2; shift 2
export SLURM_CONF=/work/blind/r28/slurm/slurm.conf
mkdir -p /work/blind/r28/runs/$RUN /work/blind/r28/gen/rc; cd /work/blind/r28/runs/$RUN || exit 1
export MASTER_ADDR=${MASTER_ADDR:-127.0.0.1}
timeout ${TMO:-170} srun "$@" > $OUT 2>&1
echo $? > /work/blind/r28/gen/rc/$RUN
