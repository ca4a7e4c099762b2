#!/bin/bash
# two "nodes" (two torchrun agents on localhost), 2 workers each; one worker is put
# in a 300 MB memory cgroup so the kernel OOM killer really kills it.
D=/work/blind/r4/runs/003_nightly_pretrain; mkdir -p $D; cd $D
CG=/sys/fs/cgroup/memory/r4_003; mkdir -p $CG; echo $((300*1024*1024)) > $CG/memory.limit_in_bytes
export R4_CG=$CG R4_CG_RANK=3
dmesg | wc -l > /tmp/r4_003_dmesg_start
for n in 0 1; do
  timeout 120 /work/blind/venv/bin/torchrun --nnodes 2 --nproc_per_node 2 --rdzv_backend c10d \
     --rdzv_endpoint 127.0.0.1:29633 --rdzv_id nightly-77 /work/blind/r4/gen/003_nightly_pretrain.py > node$n.log 2>&1 &
  sleep 1
done
wait
dmesg | tail -n +$(( $(cat /tmp/r4_003_dmesg_start) + 1 )) | grep -iE "oom|killed process|memory cgroup" > dmesg.txt
rmdir $CG 2>/dev/null
echo done >&2
