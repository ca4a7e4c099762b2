#!/bin/bash
# torchrun --nproc_per_node=3, console -> train.out ; job runs without DAC override capabilities
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/009_ckpt_dir_not_writable; rm -rf $D; mkdir -p $D; cd $D
C=/work/blind/r22/work/shared_ckpt009; rm -rf $C; mkdir -p $C; chown nobody:nogroup $C; chmod 755 $C
CKPT_DIR=$C OMP_NUM_THREADS=1 timeout 150 setpriv --bounding-set=-dac_override,-dac_read_search --inh-caps=-dac_override,-dac_read_search \
  /work/blind/venv/bin/torchrun --nproc_per_node=3 --master_port=27090 $G/train_009.py > train.out 2>&1
echo "rc=$?"
