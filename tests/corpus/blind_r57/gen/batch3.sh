#!/usr/bin/env bash
# checkpoint / scheduler teardown after a real cause
source "$(dirname "$0")/common.sh"
r012() { newrun 012; rm -rf $W/ck12; mkdir -p $W/ck12; chmod 555 $W/ck12
  sbatch -W -J ckpt -n 3 -t 1 -o slurm-%j.out --wrap "SCEN=ckpt_wait CKDIR=$W/ck12 TARGET=0 AT=4 FMT=logging ALLLOG=1 PG_TIMEOUT=600 MASTER_PORT=29512 srun setpriv --bounding-set -dac_override,-dac_read_search --inh-caps -dac_override,-dac_read_search $PY $G/worker.py" >/dev/null; }
r013() { newrun 013; jid=$(sbatch --parsable -J pretrain -N 1 -n 1 -c 6 -o train-%j.log --wrap "SCEN=alloc TARGET=4 AT=2 FMT=prefixed $TR --nproc-per-node 6 --max-restarts 5 --master-port 29513 $G/worker.py")
  for i in $(seq 60); do sleep 2; n=$(grep -c "Restarting" train-$jid.log 2>/dev/null); [ "${n:-0}" -ge 2 ] && break; done; sleep 3; scancel $jid; sleep 8; }
r026() { newrun 026; mkdir -p /tmp/b57full; mountpoint -q /tmp/b57full || mount -t tmpfs -o size=64k tmpfs /tmp/b57full; rm -f /tmp/b57full/*; dd if=/dev/zero of=/tmp/b57full/other_job.bin bs=1k count=64 2>/dev/null; CKFILE=/tmp/b57full/step_5.pt SCEN=ckpt_full TARGET=0 AT=5 FMT=logging timeout 120 $TR --nproc-per-node 3 --master-port 29526 $G/worker.py > console.log 2>&1; umount /tmp/b57full; }
r027() { newrun 027; rm -rf $W/ck27; mkdir -p $W/ck27; chmod 555 $W/ck27
  SCEN=ckpt_wait CKDIR=$W/ck27 TARGET=2 AT=3 FMT=json timeout 60 setpriv --bounding-set -dac_override,-dac_read_search --inh-caps -dac_override,-dac_read_search $TR --nproc-per-node 4 --master-port 29527 $G/worker.py > console.log 2>&1; }
"$@"
