#!/bin/bash
# step_2000 was saved with the 1000-token tokenizer. Local rank 2's cache dir picked up tokenizer
# revision 'v1.1' (2 added chat tokens) when its cache was refreshed; the others still hold v1.0.
R=/work/blind/r13/runs/015_dcp_resume_vocab
export JOB_BASE=/tmp/r13_015
rm -rf $R $JOB_BASE && mkdir -p $R && cd $R
for i in 0 1 2 3; do mkdir -p $JOB_BASE/hf_home_$i/tokenizer
  echo '{"name": "acme-bpe-v1.0", "base_vocab": 1000}' > $JOB_BASE/hf_home_$i/tokenizer/tokenizer_config.json; done
export OMP_NUM_THREADS=1
SAVE_INITIAL=1 /work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 33115 /work/blind/r13/gen/015_dcp_resume_vocab.py > /dev/null 2>&1
echo '{"name": "acme-bpe-v1.1", "base_vocab": 1000, "added_tokens": ["<|user|>", "<|assistant|>"]}' > $JOB_BASE/hf_home_2/tokenizer/tokenizer_config.json
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 33015 /work/blind/r13/gen/015_dcp_resume_vocab.py > $R/resume_job.log 2>&1
echo "exit code: $?" >> $R/resume_job.log
rm -rf $JOB_BASE
