#!/bin/bash
# sbatch with separate --output/--error files (%x-%j.out / %x-%j.err), srun --label, 4 tasks. Feature files
# are assigned round-robin; part-0007 (rank 3's second file) was re-exported by an older featurizer that drops
# one column: 31 features instead of 32. Rank 3 raises "mat1 and mat2 shapes cannot be multiplied
# (16x31 and 32x64)"; the others lose their peer.
source /work/blind/r18/gen/common.sh
newrun 020_feature_width_drift
mkdir -p $WORK/feat
$PY -c "
import numpy as np
for i in range(8):
    g = np.random.default_rng(i); d = 31 if i == 7 else 32
    np.savez('$WORK/feat/part-%04d.npz' % i, x=g.standard_normal((96, d)).astype('float32'), y=g.integers(0, 4, 96))
"
export FEAT_DIR=$WORK/feat PY GEN
jid=$(sbatch --parsable --wait $GEN/job020.sbatch); echo "rc=$? job=$jid"
