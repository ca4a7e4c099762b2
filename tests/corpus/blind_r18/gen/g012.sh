#!/bin/bash
# srun --label, 4 tasks. A stale process from an earlier job (a service that accepts and hangs up) still holds
# MASTER_PORT 23012. Rank 0 must host the TCPStore and fails at once with EADDRINUSE; ranks 1-3 connect to the
# stale service, which hangs up on them: "Failed to recv, got 0 bytes. Connection was likely closed".
source /work/blind/r18/gen/common.sh
newrun 012_stale_port_store
$PY $GEN/squatter.py 23012 & SQ=$!
sleep 1
export MASTER_ADDR=127.0.0.1 MASTER_PORT=23012 PG_TIMEOUT=15
srun -n 4 --label -J llm-sft $PY $GEN/p012_portclash.py > srun.log 2>&1
echo "rc=$?"
kill $SQ
