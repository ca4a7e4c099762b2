#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=009_spot_reclaim; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
JID=$(sbatch --parsable -o $OUT/slurm-%j.out $G/s009.sbatch)
sleep 35
scancel --signal=TERM $JID
while squeue -h -j $JID 2>/dev/null | grep -q .; do sleep 2; done
echo "exit done $JID"
