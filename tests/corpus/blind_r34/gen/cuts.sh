#!/usr/bin/env bash
# Cuts of what users pasted (run after make_run.sh): the full console kept in scratch, only the tail handed over.
set -e
B=/work/blind/r34
mv $B/runs/001/console.txt /tmp/r34w/001/console.txt && tail -n 100 /tmp/r34w/001/console.txt > $B/runs/001/paste.txt
mv $B/runs/016/console.txt /tmp/r34w/016/console.txt && tail -n 90 /tmp/r34w/016/console.txt > $B/runs/016/paste.txt
