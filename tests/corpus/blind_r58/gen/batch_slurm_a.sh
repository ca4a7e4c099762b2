#!/bin/bash
S=/work/blind/r58/gen/sb.sh
source /work/blind/slurm58/env.sh
$S 036 "--ntasks=3 --time=1" "-l" "--mode none --fmt logging --steps 1000 --sleep 3 --timeout 60" &
( /work/blind/r58/gen/sb.sh 037 "--ntasks=2" "" "--mode none --fmt print --steps 1000 --sleep 1 --timeout 60" ) &
sleep 40
scancel $(squeue -h -n train-037 -o %i)
wait
