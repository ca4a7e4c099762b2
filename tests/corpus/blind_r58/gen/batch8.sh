#!/bin/bash
R=/work/blind/r58/gen/run.sh
mkdir -p /tmp/b58_062
$R 062 'PG_FILE_INIT=/tmp/b58_062/pg torchrun --nproc-per-node 3 --master-port 29562 --max-restarts 1 $T --mode restart_once --bad 1 --fmt print --outdir /tmp/b58_062'
rm -rf /tmp/b58_062
