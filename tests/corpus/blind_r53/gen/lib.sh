# helpers: tr NNN NPROC [extra torchrun args] -- env is passed via the caller's environment
SET=/work/blind/r53/set
PY=/work/blind/torchenv/bin/python
TR=/work/blind/torchenv/bin/torchrun
G=$SET/gen
tr_run() { # tr_run NNN NPROC PORT [args...]
  local n=$1 np=$2 port=$3; shift 3
  local d=$SET/runs/$n; rm -rf $d; mkdir -p $d
  ( cd $d && timeout 110 $TR --nnodes=1 --nproc_per_node=$np --master_addr=127.0.0.1 --master_port=$port "$@" $G/train.py ) > $d/console.log 2>&1
  echo "run $n rc=$?" | tee -a $SET/gen/rc.txt
}
