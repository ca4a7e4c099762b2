#!/bin/bash
set -e
W=/tmp/r33w; R=/work/blind/r33/runs
mk(){ mkdir -p $R/$1; }
mk 001; cp $W/stepexc.log $R/001/console.log
mk 002; tail -n 120 $W/badrec.log > $R/002/tail.log
mk 003; grep -E -C3 "error|Error|Traceback|Killed" $W/missing.log > $R/003/grep.txt
mk 004; cp $W/worker.log $R/004/console.log
mk 005; cp $W/diskfull.log $R/005/train.log
mk 006; tail -n 200 $W/ro.log > $R/006/last200.log
mk 007; cp $W/loadmis.log $R/007/console.log
mk 008; mkdir -p /tmp/r33tar8/logs; cp $W/corrupt.log /tmp/r33tar8/logs/torchrun.log; tar -czf $R/008/logs.tar.gz -C /tmp/r33tar8 logs
mk 009; grep -E -B2 -A6 "error|Error|Traceback|Killed" $W/nan.log > $R/009/grep.txt
mk 010; cp $W/diverge.log $R/010/console.log
mk 011; cp $W/sizemis.log $R/011/console.log
mk 012; tail -n 80 $W/opmis.log > $R/012/tail80.log
mk 013; cp $W/skip.log $R/013/console.log
mk 014; cp $W/hang.log $R/014/console.log
mk 015; cp $W/exit0.log $R/015/console.log
mk 016; cp $W/sigkill.log $R/016/console.log
mk 017; grep -v -E "^\[rank[1-9]\]" $W/segv.log | grep -v -E "INFO \[train\] rank [1-9]/" > $R/017/rank0_and_launcher.log
mk 018; mkdir -p $R/018/logs; for r in 0 1; do grep -E "^\[rank$r\]" $W/shape.log > $R/018/logs/rank$r.log || true; done
grep -v -E "^\[rank[0-9]\]" $W/shape.log | grep -v "INFO \[train\]" > $R/018/logs/launcher.log
grep "INFO \[train\]" $W/shape.log >> $R/018/logs/rank0.log
