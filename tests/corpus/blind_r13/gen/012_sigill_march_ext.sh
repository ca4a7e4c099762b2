#!/bin/bash
R=/work/blind/r13/runs/012_sigill_march_ext
rm -rf $R /tmp/r13_012 && mkdir -p $R /tmp/r13_012/nodea/lib /tmp/r13_012/nodeb/lib && cd $R
gcc -O3 -march=x86-64-v3 -shared -fPIC -o /tmp/r13_012/nodea/lib/libfastfeat.so /work/blind/r13/gen/012_sigill_march_ext.c
gcc -O3 -march=sapphirerapids -shared -fPIC -o /tmp/r13_012/nodeb/lib/libfastfeat.so /work/blind/r13/gen/012_sigill_march_ext.c
export SLURM_CONF=/work/blind/slurm/slurm.conf
timeout 150 sbatch --wait /work/blind/r13/gen/012_sigill_march_ext.sbatch > /dev/null 2>&1
rm -rf /tmp/r13_012
