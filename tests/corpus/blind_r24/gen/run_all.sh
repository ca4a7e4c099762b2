#!/bin/bash
# Regenerates every run in order (needs the r24 Slurm daemons for 012, 022, 023, 029).
cd /work/blind/r24/gen
for s in [0-9][0-9][0-9]_*.sh; do
  echo "=== $s $(date +%T)"
  timeout 400 ./$s 2>&1 | tail -5
done
echo "=== all done $(date +%T)"
