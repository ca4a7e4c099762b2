#!/bin/bash
cd /work/blind/r26/gen
for n in "$@"; do echo "=== $n $(date -Is)"; ./$n.sh > genlogs/$n.txt 2>&1; echo "rc $? $(date -Is)"; done
