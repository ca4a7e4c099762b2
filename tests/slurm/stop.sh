#!/usr/bin/env bash
# Stop the test Slurm started by start.sh.
pkill -x slurmd 2>/dev/null; pkill -x slurmctld 2>/dev/null; true
