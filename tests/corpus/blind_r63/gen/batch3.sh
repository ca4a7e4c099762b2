source /work/blind/r63/gen/common.sh
ACC=/work/blind/torchenv/bin/accelerate
r036() { rd 036; cd /tmp; MODE=ok EPOCHS=3 $PY $G/lit.py > $S/runs/036/console.log 2>&1; }
r037() { rd 037; cd /tmp; MODE=dtype FAULT_RANK=1 $PY $G/lit.py > $S/runs/037/console.log 2>&1; }
r038() { rd 038; mkdir -p /tmp/ro038; mount -t tmpfs -o size=1m,ro tmpfs /tmp/ro038; cd /tmp; MODE=ckpt_ro CKPT_DIR=/tmp/ro038/ckpts $PY $G/lit.py > $S/runs/038/console.log 2>&1; umount /tmp/ro038; }
r039() { rd 039; rm -rf /tmp/acc039; CKPT_DIR=/tmp/acc039 MODE=ok EPOCHS=3 $ACC launch --cpu --num_processes 2 --main_process_port 29639 $G/acc.py > console.log 2>&1; }
r040() { rd 040; HF_HOME=/tmp/hf040 MODE=hub $ACC launch --cpu --num_processes 2 --main_process_port 29640 $G/acc.py > console.log 2>&1; }
r041() { rd 041; rm -f /tmp/loop041.img; mkdir -p /tmp/mnt041; dd if=/dev/zero of=/tmp/loop041.img bs=1M count=8 status=none; mkfs.ext4 -q -F /tmp/loop041.img; mount -o loop /tmp/loop041.img /tmp/mnt041;
  mkdir -p /tmp/mnt041/run7; dd if=/dev/urandom of=/tmp/mnt041/run7/old_ckpt.bin bs=1k count=99999 status=none 2>/dev/null; rm -f /tmp/mnt041/run7/old_ckpt.bin; 
  avail=$(df -k --output=avail /tmp/mnt041 | tail -1); dd if=/dev/urandom of=/tmp/mnt041/run7/old_ckpt.bin bs=1k count=$((avail-12)) status=none;
  df -h /tmp/mnt041 > /tmp/df041.txt; CKPT_DIR=/tmp/mnt041/run8 MODE=disk_full $ACC launch --cpu --num_processes 2 --main_process_port 29641 $G/acc.py > console.log 2>&1; umount /tmp/mnt041; }
r057() { rd 057; rm -f /tmp/loop057.img; mkdir -p /tmp/mnt057; dd if=/dev/zero of=/tmp/loop057.img bs=1M count=8 status=none; mkfs.ext4 -q -F -m 0 /tmp/loop057.img; mount -o loop /tmp/loop057.img /tmp/mnt057;
  mkdir -p /tmp/mnt057/run7; avail=$(df -k --output=avail /tmp/mnt057 | tail -1); dd if=/dev/urandom of=/tmp/mnt057/run7/old_ckpt.bin bs=1k count=$((avail-24)) status=none;
  CKPT_DIR=/tmp/mnt057/run8 MODE=disk_full $ACC launch --cpu --num_processes 2 --main_process_port 29657 $G/acc.py > console.log 2>&1; umount /tmp/mnt057; }
"$@"
