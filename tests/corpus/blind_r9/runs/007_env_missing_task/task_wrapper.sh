#!/bin/bash
if [ "$SLURM_PROCID" -lt 3 ]; then source $PROFILES/node-a.env; else source $PROFILES/node-b.env; fi
exec /work/blind/venv/bin/python -u /work/blind/r9/gen/007_env_missing_task.py
