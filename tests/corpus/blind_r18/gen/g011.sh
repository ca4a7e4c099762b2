#!/bin/bash
# (rerun by the r18 reviewer: the first version read address 0, which ctypes turns into a fresh buffer, so nothing crashed; now it reads ptr+8)
# srun (no --label), 4 tasks; script logs "host:pid [R<rank>]". Rank 0's data part has a record with an emoji
# (4-byte UTF-8) at position 23; the ctypes tokenizer dereferences a NULL arena pointer: SIGSEGV (faulthandler
# prints "Fatal Python error: Segmentation fault"). The others lose their peer in the next all_reduce.
source /work/blind/r18/gen/common.sh
newrun 011_native_tokenizer_segfault
mkdir -p $WORK/data
$PY -c "
import json
for r in range(4):
    with open('$WORK/data/part-%03d.jsonl' % r, 'w') as f:
        for i in range(40):
            t = 'sample %d of part %d: plain ascii text' % (i, r)
            if r == 0 and i == 22: t = 'great result \U0001F680 launch'
            f.write(json.dumps({'text': t}) + '\n')
"
export DATA_DIR=$WORK/data MASTER_ADDR=127.0.0.1 MASTER_PORT=23011
srun -n 4 -J tok-pretrain $PY $GEN/p011_native_tok.py > output.log 2>&1
echo "rc=$?"
