#!/bin/bash
# plain bash loop, one log per rank. Rank 0's eval split has 6 examples, the others 8 (the eval set was split with
# a remainder): all_gather gets tensors of different sizes. Gloo aborts ("Received data size doesn't match")
# on whichever rank receives the short buffer; the rest see the peer vanish.
source /work/blind/r18/gen/common.sh
newrun 004_eval_gather_uneven
mkdir -p $WORK/eval logs
$PY -c "
import json
ids=list(range(30))
parts=[ids[0:6], ids[6:14], ids[14:22], ids[22:30]]
for r,p in enumerate(parts): json.dump(p, open('$WORK/eval/eval_part%d.json'%r,'w'))
"
export EVAL_DIR=$WORK/eval MASTER_ADDR=127.0.0.1 MASTER_PORT=23004 WORLD_SIZE=4
launch() {
pids=()
for r in 0 1 2 3; do
  RANK=$r LOCAL_RANK=$r $PY $GEN/p004_evalgather.py > logs/train.$r.log 2>&1 &
  pids+=($!)
done
for i in 0 1 2 3; do wait ${pids[$i]}; echo "rank $i exit $?"; done
}
launch > launch.log 2>&1
cat launch.log
