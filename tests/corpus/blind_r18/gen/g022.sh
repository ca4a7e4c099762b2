#!/bin/bash
# torchrun --log-dir --redirects 3 (per-rank files, nothing tee'd: the console has only the agent's summary). Resume from a
# checkpoint whose previous job was killed while writing: optim_shard_001.pt is cut off at 40%. Rank 1's torch.load fails in PyTorchFileReader
# with "OSError: [Errno 22] Invalid argument" (what this torch does for a file cut mid-record; a file cut
# before the first record gives "failed finding central directory"); ranks 0,2,3 wait in the post-resume barrier and lose their peer.
source /work/blind/r18/gen/common.sh
newrun 022_resume_truncated_optim_shard
mkdir -p $WORK/ckpt/step_000400
$PY -c "
import os, torch, trainlib as T
m = T.TinyNet(); torch.save({'model': m.state_dict(), 'step': 400}, '$WORK/ckpt/step_000400/model.pt')
for r in range(4):
    o = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9)
    for p in m.parameters(): p.grad = torch.zeros_like(p)
    o.step(); p = '$WORK/ckpt/step_000400/optim_shard_%03d.pt' % r; torch.save(o.state_dict(), p)
    if r == 1:
        n = os.path.getsize(p); open(p, 'r+b').truncate(int(n * 0.4))
"
export RESUME_DIR=$WORK/ckpt/step_000400
$TORCHRUN --nproc-per-node 4 --master-port 23022 --log-dir logs --redirects 3 $GEN/p022_resume.py > torchrun.out 2>&1
echo "rc=$?"
