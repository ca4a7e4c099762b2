#!/bin/bash
if [ "$SLURM_PROCID" -lt 2 ]; then export FAKE_NODE=node-a; else export FAKE_NODE=node-b; fi
export PYTHONPATH=$STACK/$FAKE_NODE
exec /work/blind/venv/bin/python -u /work/blind/r9/gen/002_stale_ext_node_b.py
