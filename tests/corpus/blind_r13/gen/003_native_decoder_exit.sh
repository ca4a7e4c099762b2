#!/bin/bash
# a partially re-exported part file (rank 1's) has one record written by the old exporter with the wrong header
R=/work/blind/r13/runs/003_native_decoder_exit
rm -rf $R && mkdir -p $R/build $R/data && cd $R
gcc -O2 -shared -fPIC -o build/librawdec.so /work/blind/r13/gen/003_native_decoder_exit.c
/work/blind/venv/bin/python - <<'PY'
import numpy as np, struct
for r in range(3):
    rng = np.random.default_rng(r); out = bytearray()
    for i in range(150 * 16):
        v = rng.normal(size=24); v[0] = v[1:5].sum() * 0.5
        magic = 0x5253
        if r == 1 and i == 1500: magic = 0x5252   # old-exporter header
        out += struct.pack("<HH", magic, 24) + (np.clip(v, -30, 30) * 1024).astype("<i2").tobytes()
    open(f"data/part-{r:05d}.rec", "wb").write(out)
PY
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 33003 /work/blind/r13/gen/003_native_decoder_exit.py > $R/train.log 2>&1
echo "exit code $?" >> $R/train.log
rm -rf $R/build $R/data
