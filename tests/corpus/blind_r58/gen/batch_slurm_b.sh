#!/bin/bash
S=/work/blind/r58/gen/sb.sh
$S 038 "--ntasks=3 --time=1" "-l" "--mode hang_slurm --bad 2 --at 6 --steps 200 --sleep 0.5 --fmt logging --timeout 900" &
sleep 2
$S 013 "--ntasks=3" "-l" "--mode deadlock --bad 1 --fmt plain"
$S 019 "--ntasks=4" "" "--mode mismatch_op --bad 3 --fmt json" "export TORCH_DISTRIBUTED_DEBUG=DETAIL"
$S 021 "--ntasks=3" "-l" "--mode diverge --fmt logging --steps 30"
$S 024 "--ntasks=3" "" "--mode port_wrong --bad 2 --fmt print --timeout 20"
mkdir -p /mnt/ckpt_ro_b58; mount -t tmpfs -o size=64m,ro tmpfs /mnt/ckpt_ro_b58
$S 027 "--ntasks=3 --error=/work/blind/r58/runs/027/slurm-%j.err" "--kill-on-bad-exit=1" "--mode ckpt_rofs --fmt print --ckdir /mnt/ckpt_ro_b58 --at 4"
umount /mnt/ckpt_ro_b58
$S 039 "--ntasks=3" "--kill-on-bad-exit=1" "--mode device --bad 1 --fmt lognorank"
$S 053 "--ntasks=4" "-l --kill-on-bad-exit=1" "--mode sigsegv --bad 2 --fmt print"
$S 045 "--ntasks=3" "-l" "--mode healthy_metrics --fmt logging" "export TORCH_CPP_LOG_LEVEL=INFO TORCH_DISTRIBUTED_DEBUG=DETAIL"
wait
