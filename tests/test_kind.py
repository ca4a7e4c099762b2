"""Is it a training log at all (signatures/_kind.py)? Lines that real jobs, launchers and schedulers print (taken
from the corpora) read as a log's; sentences that name the same things do not."""

from __future__ import annotations

import pytest
from healthy_corpus import CHAT

from signatures import diagnose_sources, source_from_bytes
from signatures._kind import log_like

LOG_LINES = [
    "[03/07 20:19:00 d2.data.common]: Serialized dataset takes 424.32 MiB",  # detectron2
    "[W reducer.cpp:1303] Warning: find_unused_parameters=True was specified in DDP constructor",
    "  1%|▉                                        | 12/1000 [00:03<04:10,  3.95it/s]",
    "06/12/2020 10:05:38 - INFO - transformers.trainer_tf -   ***** Running training *****",
    "  Message:               TFJob myjob has failed because 1 Worker replica(s) failed.",  # kubectl describe
    "Epoch 0 step 0",
    "rank 2: prefetch thread started, shard=/data/sft/part-002.jsonl",
    "Submitted batch job 66",
    "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.00 GiB.",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.",
    "Traceback (most recent call last):",
    '  File "/workspace/train.py", line 188, in <module>',
    "W1130 12:00:00.100000 4242 torch/distributed/run.py:793] *****************************************",
    "2026-11-30 12:00:05,000 INFO step 10 loss 2.31",
    "slurmstepd: error: *** JOB 16 ON vm CANCELLED AT 2026-12-02T10:13:38 ***",
    "gpu-node-00:3000:3100 [0] NCCL INFO Bootstrap : Using eth0:10.1.0.10<0>",
    "[  123.456789] NVRM: Xid (PCI:0000:5d:00): 79, GPU has fallen off the bus.",
    "{'loss': 2.1234, 'learning_rate': 4.9e-05, 'epoch': 0.01}",
    "| loss          | 0.423    |",  # OpenAI baselines' logger (guided-diffusion), blind_t4 009
    "| total_timesteps | 1.28e+05 |",
    "Some weights of the model checkpoint were not used when initializing CLIPTextModel:",  # blind_t10 015
    "Some weights of BertForSequenceClassification were not initialized from the model checkpoint at bert-base",
]
PROSE_LINES = [
    *CHAT.splitlines(),
    "root:x:0:0:root:/root:/bin/bash",
    "![rank 3 runs out of GPU memory at 12:10:05; the seven other ranks wait](docs/timeline.png)",
    "(rank 2 runs one more all_reduce than the others; the tool names rank 0, whose barrier timed out).",
    "`[r2]` prefixes, a straggler on a second node, a missing shard under sbatch, a truncated torch.save",
    "regex) make the bot diagnose, unasked, every job in scope that ends FAILED, TIMEOUT, OUT_OF_MEMORY,",
]


@pytest.mark.parametrize("line", LOG_LINES)
def test_a_line_a_job_prints(line):
    assert log_like(line)


@pytest.mark.parametrize("line", PROSE_LINES)
def test_a_sentence_about_one(line):
    assert not log_like(line)


def test_a_file_named_for_its_rank_is_a_log_whatever_it_says():
    """torchrun's attempt_0/3/stdout.log with one plain line of the program's own is that rank's log."""
    report = diagnose_sources([source_from_bytes("logs/attempt_0/3/stdout.log", b"loading /data/train-0.txt\n")])
    assert report.outcome == "healthy"
    other = diagnose_sources([source_from_bytes("notes.txt", b"loading /data/train-0.txt\n")])
    assert other.outcome == "not_a_log" and other.not_a_log is not None and other.not_a_log.sampled == 1
