#!/bin/bash
# launched interactively from a tmux pane (stdin stays open), srun forwards stdin to task 0
R=/work/blind/r12/runs/010_breakpoint_left_in
rm -rf $R && mkdir -p $R && cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1
sleep 55 | timeout 60 srun -N1 -n3 -J clsft /work/blind/venv/bin/python /work/blind/r12/gen/010_breakpoint_left_in.py > $R/srun_output.txt 2>&1
echo "srun exit=${PIPESTATUS[1]}" >> $R/srun_output.txt
