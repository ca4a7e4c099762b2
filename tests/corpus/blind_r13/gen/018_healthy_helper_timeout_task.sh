#!/bin/bash
# the metrics export dir is a read-only mount on this cluster (as seen from the compute task)
mkdir -p /tmp/r13_018_export
mount --bind /tmp/r13_018_export /tmp/r13_018_export && mount -o remount,bind,ro /tmp/r13_018_export
exec /work/blind/venv/bin/python -u /work/blind/r13/gen/018_healthy_helper_timeout.py
