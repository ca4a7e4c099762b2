#!/usr/bin/env python3
"""Benchmark `bot.redact.redact` on realistic evidence lines and on 1 MB single lines.

Generates 10,000 evidence lines like the ones the bot posts (traceback frames and source
lines, NCCL/CUDA errors, checkpoint paths, loss lines, env/config echoes, ~5% carrying a
secret), masks them one call per line and as one joined text, and times 1 MB lines: a
realistic one (log chatter without newlines, minified JSON) and adversarial ones built to
make a backtracking regex slow.

    python bench/redact_bench.py
    python bench/redact_bench.py --lines 50000 --repeat 5
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.redact import redact

PLAIN = [
    '[rank{r}]:   File "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py", line {n}, in _call_impl',
    '[rank{r}]:   File "/workspace/megatron/core/tensor_parallel/layers.py", line {n}, in forward',
    "[rank{r}]:     output = self.module(*inputs, **kwargs)",
    "[rank{r}]:     token_type_ids = torch.zeros_like(input_ids)",
    "[rank{r}]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {n}.00 MiB. GPU {r} has a total "
    "capacity of 79.15 GiB of which 3.06 MiB is free.",
    "[rank{r}]: RuntimeError: CUDA error: an illegal memory access was encountered",
    "node-{r}:{n}:{n} [{r}] NCCL INFO comm 0x7f3a2c000000 rank {r} nranks 64 cudaDev {r} busId 1b000 "
    "commId 0x8a1f3e2b5c6d7e8f - Init COMPLETE",
    "[rank{r}]:[E ProcessGroupNCCL.cpp:616] [Rank {r}] Watchdog caught collective operation timeout: "
    "WorkNCCL(SeqNum={n}, OpType=ALLREDUCE, NumelIn=4096, NumelOut=4096, Timeout(ms)=600000)",
    "[rank{r}]: step {n} | loss 2.{n} | lr 3.00e-04 | grad_norm 0.{n} | tokens/s 98{n} | num_tokens=2048",
    "Saving checkpoint to /mnt/ckpt/global_step{n}/mp_rank_00_model_states.pt",
    "Loading s3://bucket/run-3f2a9c/ckpt.pt (sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824)",
    "size mismatch for lm_head.weight: copying a param with shape torch.Size([4096, 11008]) from checkpoint",
    "git_sha=3f2a9c1b7e4d5a6f8091a2b3c4d5e6f708192a3b model=meta-llama/Llama-2-7b-hf max_tokens: 4096",
    "wandb: Syncing run glowing-sun-{n} (id 3f2a9c1b) job 550e8400-e29b-41d4-a716-446655440000",
    "KeyError: 'token_type_ids'",
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: train.py FAILED",
    "    model = AutoModelForCausalLM.from_pretrained(args.model, use_auth_token=True, token=None)",
]
SECRET = [
    "export HF_TOKEN=hf_FAKEabcdefghijklmnopqrstuvwxyz0123",
    "    os.environ['WANDB_API_KEY'] = '0123456789abcdef0123456789abcdef01234567'",
    "    headers = {{'Authorization': 'Bearer 7fQx2LmPz9KdR4vT8wYb3NcJ6hUe1sAq'}}",
    "botocore.exceptions.ClientError: AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "python train.py --wandb-key 0123456789abcdef0123456789abcdef01234567 --password=hunter2 --lr 1e-4",
    'config: {{"db_password": "s3cr3t-Passw0rd", "max_tokens": 4096}}',
]


def evidence_lines(count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [
        rng.choice(SECRET if rng.random() < 0.05 else PLAIN).format(r=rng.randrange(64), n=rng.randrange(10_000))
        for _ in range(count)
    ]


def one_mb_lines() -> dict[str, str]:
    size = 1 << 20
    chatter = " ".join(evidence_lines(400, seed=3))
    minified = ",".join(f'"k{i}":"v{i}","num_tokens":{i}' for i in range(40_000))
    return {
        "log chatter": (chatter * (size // len(chatter) + 1))[:size],
        "minified json": ("{" + minified * (size // len(minified) + 1))[:size],
        "base64 blob": ("TWFuIGlzIGRpc3Rpbmd1aXNoZWQsIG5vdCBvbmx5IGJ5IGhpcyByZWFzb24s" * (size // 60 + 1))[:size],
        "eyJ= repeated": ("eyJ=" * (size // 4))[:size],
        "sk- repeated": ("sk-" * (size // 3 + 1))[:size],
        "// repeated": ("//" * (size // 2))[:size],
        "password=": ("password=" * (size // 9 + 1))[:size],
        "token: + spaces": ("token:" + " " * 4000) * (size // 4006 + 1),
        "quotes": ("'a" * (size // 2))[:size],
        "%-encoded URLs": ("https%3A%2F%2Fu%3Ap" * (size // 19 + 1))[:size],
        "tqdm \\r updates": (
            "\rEpoch 1:  45%|####5     | 450/1000 [00:45<00:55, 10.0it/s, loss=0.512]" * (size // 70 + 1)
        )[:size],
        "letters": "a" * size,
    }


def timed(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3, help="report the best of this many runs")
    args = parser.parse_args()

    lines = evidence_lines(args.lines)
    masked = sum(redact(line) != line for line in lines)
    per_line = timed(lambda: [redact(line) for line in lines], args.repeat)
    joined_text = "\n".join(lines)
    joined = timed(lambda: redact(joined_text), args.repeat)
    print(f"{args.lines} evidence lines ({masked} masked, {len(joined_text) / 1e6:.2f} MB)")
    print(f"  one call per line: {per_line:.3f} s  ({args.lines / per_line:,.0f} lines/s)")
    print(f"  one joined text:   {joined:.3f} s  ({args.lines / joined:,.0f} lines/s)")
    print("1 MB single lines:")
    for name, line in one_mb_lines().items():
        print(f"  {name:<16} {timed(lambda line=line: redact(line), 1):.3f} s")


if __name__ == "__main__":
    main()
