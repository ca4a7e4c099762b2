#!/bin/bash
# node-local NVMe per local rank; nvme1 is a small device still holding a previous job's leftovers
R=/work/blind/r9/runs/015_local_nvme_full; umount $R/local/nvme1 2>/dev/null; rm -rf $R; mkdir -p $R/local/nvme0 $R/local/nvme1 $R/local/nvme2; cd $R
mount -t tmpfs -o size=8m tmpfs $R/local/nvme1
head -c 5M /dev/urandom > $R/local/nvme1/old_job_4411_dump.bin
export OMP_NUM_THREADS=1 NVME_ROOT=$R/local
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 3 --master-port 30016 --log-dir $R/tel --tee 3 /work/blind/r9/gen/015_local_nvme_full.py > $R/console.txt 2>&1
echo "exit=$?" >> $R/console.txt
umount $R/local/nvme1; rm -rf $R/local
