#!/bin/bash
# stands in for per-node software images: task 2 runs on 'node b', whose fastfeat build was compiled
# on a Sapphire Rapids build host with -march=sapphirerapids (AVX512-FP16); this CPU has no AVX512-FP16
if [ "$SLURM_PROCID" = 2 ]; then export FASTFEAT_HOME=/tmp/r13_012/nodeb; else export FASTFEAT_HOME=/tmp/r13_012/nodea; fi
exec /work/blind/venv/bin/python -u /work/blind/r13/gen/012_sigill_march_ext.py
