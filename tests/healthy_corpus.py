"""Healthy multi-rank training logs, in the formats real stacks print.

Each generator returns a deterministic log of thousands of lines that contains
the benign lines a careless signature would fire on: warm-up loss-scale
overflows, NCCL INFO chatter (including its teardown "Connection closed by
localRank" lines), deprecation and user warnings, `grad_norm: nan` at step 0,
"process group has NOT been destroyed" exit warnings, checkpoint saves that
complete, tqdm bars rewritten with carriage returns.
"""

from __future__ import annotations

import random
from collections.abc import Callable

PG_NOT_DESTROYED = (
    "[W1130 13:10:11.000000000 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been "
    "destroyed before we destruct ProcessGroupNCCL. On normal program exit, the application should call "
    "destroy_process_group to ensure that any pending NCCL operations have finished in this process. "
    "In rare cases this process can exit before this point and block the progress of another member of "
    "the process group. This constraint has always been present,  but this warning has only been added "
    "since PyTorch 2.4 (function operator())"
)


def _nccl_init(rng: random.Random, ranks: int, prefix=lambda r: "") -> list[str]:
    out = []
    for r in ranks_iter(ranks):
        host = f"gpu-node-{r // 8:02d}"
        tag = f"{prefix(r)}{host}:{3000 + r}:{3100 + r} [{r % 8}]"
        out += [
            f"{tag} NCCL INFO Bootstrap : Using eth0:10.1.0.{r // 8 + 10}<0>",
            f"{tag} NCCL INFO NET/Plugin: No plugin found (libnccl-net.so), using internal implementation",
            f"{tag} NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB eth0:10.1.0.{r // 8 + 10}<0>",
            f"{tag} NCCL INFO Using network IB",
            f"{tag} NCCL INFO NCCL version 2.21.5+cuda12.4" if r == 0 else f"{tag} NCCL INFO cudaDriverVersion 12040",
            f"{tag} NCCL INFO comm 0x{rng.randrange(1 << 40):x} rank {r} nranks {ranks} cudaDev {r % 8} nvmlDev {r % 8} "
            f"busId {0x18 + r % 8:x}000 commId 0x5f2e - Init START",
            f"{tag} NCCL INFO Setting affinity for GPU {r % 8} to ffff,ffffffff",
            f"{tag} NCCL INFO Channel 00/32 :    0   1   2   3   4   5   6   7",
            f"{tag} NCCL INFO Channel 00/0 : {r}[{r % 8}] -> {(r + 1) % ranks}[{(r + 1) % 8}] via P2P/CUMEM/read",
            f"{tag} NCCL INFO Connected all rings",
            f"{tag} NCCL INFO Connected all trees",
            f"{tag} NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0",
            f"{tag} NCCL INFO threadThresholds 8/8/64 | 64/8/64 | 512 | 512",
            f"{tag} NCCL INFO comm 0x55d0 rank {r} nranks {ranks} cudaDev {r % 8} nvmlDev {r % 8} busId 18000 "
            f"commId 0x5f2e - Init COMPLETE",
        ]
    return out


def _nccl_teardown(ranks: int, prefix=lambda r: "") -> list[str]:
    out = []
    for r in ranks_iter(ranks):
        tag = f"{prefix(r)}gpu-node-{r // 8:02d}:{3000 + r}:{3200 + r} [{r % 8}]"
        out.append(f"{tag} NCCL INFO [Service thread] Connection closed by localRank {(r + 1) % 8}")
        out.append(f"{tag} NCCL INFO comm 0x55d0 rank {r} nranks {ranks} cudaDev {r % 8} busId 18000 - Abort COMPLETE")
    return out


def ranks_iter(n: int):
    return range(n)


def deepspeed_fp16(rng: random.Random, ranks: int = 8, steps: int = 600) -> str:
    """torchrun + DeepSpeed ZeRO-2, fp16 with dynamic loss scaling and completing checkpoints."""
    pre = lambda r: f"[rank{r}]:"  # noqa: E731
    out = [
        "W1130 12:00:00.100000 4242 torch/distributed/run.py:793] ",
        "W1130 12:00:00.100000 4242 torch/distributed/run.py:793] *****************************************",
        "W1130 12:00:00.100000 4242 torch/distributed/run.py:793] Setting OMP_NUM_THREADS environment variable for "
        "each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for "
        "optimal performance in your application as needed.",
    ]
    out += _nccl_init(rng, ranks, pre)
    for r in range(ranks):
        out.append(
            f"[rank{r}]:[2026-11-30 12:00:05,{r:03d}] [INFO] [config.py:1000:print] fp16_enabled ................. True"
        )
        out.append(
            f"[rank{r}]:/usr/lib/python3.11/site-packages/torch/_utils.py:831: UserWarning: TypedStorage is "
            "deprecated. It will be removed in the future and UntypedStorage will be the only storage class."
        )
    scale = 65536
    for step in range(1, steps + 1):
        t = f"2026-11-30 12:{step // 60 % 60:02d}:{step % 60:02d},{rng.randrange(1000):03d}"
        if step <= 6:
            for r in range(ranks):
                out.append(
                    f"[rank{r}]:[{t}] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank {r} "
                    f"Skipping step. Attempted loss scale: {scale}, reducing to {scale // 2}"
                )
            scale //= 2
            continue
        if step % 10 == 0:
            out.append(
                f"[rank0]:[{t}] [INFO] [logging.py:96:log_dist] [Rank 0] step={step}, skipped=6, "
                f"lr=[{3e-4 * min(1, step / 100):.6e}], mom=[(0.9, 0.95)]"
            )
            out.append(
                f"[rank0]:[{t}] [INFO] [timer.py:260:stop] epoch=0/micro_step={step}/global_step={step}, "
                f"RunningAvgSamplesPerSec={rng.uniform(250, 260):.3f}, CurrSamplesPerSec={rng.uniform(250, 260):.3f}, "
                f"MemAllocated=14.2GB, MaxMemAllocated=41.7GB"
            )
        for r in range(ranks):
            out.append(
                f"[rank{r}]: step {step} loss {6.0 / (1 + step / 200) + rng.random() * 0.1:.4f} "
                f"grad_norm {rng.uniform(0.3, 1.5):.3f} loss_scale {scale}"
            )
        if step % 200 == 0:
            out.append(
                f"[rank0]:[{t}] [INFO] [logging.py:96:log_dist] [Rank 0] [Torch] Checkpoint global_step{step} "
                "is about to be saved!"
            )
            for r in range(ranks):
                out.append(
                    f"[rank{r}]:[{t}] [INFO] [logging.py:96:log_dist] [Rank {r}] Saving model checkpoint: "
                    f"/ckpt/run7/global_step{step}/mp_rank_00_model_states.pt"
                )
                out.append(
                    f"[rank{r}]:[{t}] [INFO] [torch_checkpoint_engine.py:21:save] [Torch] Saving "
                    f"/ckpt/run7/global_step{step}/zero_pp_rank_{r}_mp_rank_00_optim_states.pt..."
                )
                out.append(
                    f"[rank{r}]:[{t}] [INFO] [torch_checkpoint_engine.py:23:save] [Torch] Saved "
                    f"/ckpt/run7/global_step{step}/zero_pp_rank_{r}_mp_rank_00_optim_states.pt."
                )
            out.append(
                f"[rank0]:[{t}] [INFO] [torch_checkpoint_engine.py:33:commit] [Torch] Checkpoint "
                f"global_step{step} is ready now!"
            )
    out += [f"[rank{r}]:{PG_NOT_DESTROYED}" for r in range(ranks)]
    out += _nccl_teardown(ranks, pre)
    out.append(
        "I1130 13:10:20.000000 4242 torch/distributed/elastic/agent/server/api.py:879] [default] worker group "
        "successfully finished. Waiting 300 seconds for other agents to finish."
    )
    return "\n".join(out) + "\n"


def hf_trainer(rng: random.Random, steps: int = 12000) -> str:
    """Accelerate / HF Trainer on 4 GPUs: dict logs, grad_norm nan at step 0, tqdm bars, warnings, saves."""
    out = [
        "The following values were not passed to `accelerate launch` and had defaults used instead:",
        "\t`--num_processes` was set to a value of `4`",
        "/usr/lib/python3.11/site-packages/transformers/training_args.py:1525: FutureWarning: `evaluation_strategy` is "
        "deprecated and will be removed in version 4.46 of 🤗 Transformers. Use `eval_strategy` instead",
        "/usr/lib/python3.11/site-packages/torch/utils/checkpoint.py:464: UserWarning: torch.utils.checkpoint: the "
        "use_reentrant parameter should be passed explicitly. In version 2.5 we will raise an exception if "
        "use_reentrant is not passed.",
        "FutureWarning: `torch.cuda.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cuda', "
        "args...)` instead.",
        "Detected kernel version 4.18.0, which is below the recommended minimum of 5.5.0; this can cause the process "
        "to hang. It is recommended to upgrade the kernel to the minimum version or higher.",
        "{'loss': 11.2331, 'grad_norm': nan, 'learning_rate': 0.0, 'epoch': 0.0}",
    ]
    bar = ""
    for step in range(1, steps + 1):
        bar += f"\r {step * 100 // steps:3d}%|{'█' * (step * 20 // steps):<20}| {step}/{steps} [00:{step // 60:02d}<01:00, 3.2it/s]"
        if step % 10 == 0:
            out.append(bar.lstrip("\r"))
            bar = ""
            out.append(
                f"{{'loss': {4.0 / (1 + step / 300) + rng.random() * 0.05:.4f}, 'grad_norm': "
                f"{rng.uniform(0.5, 3):.4f}, 'learning_rate': {2e-5 * (1 - step / steps):.4e}, "
                f"'epoch': {step / steps:.2f}}}"
            )
        if step % 4000 == 0:
            out.append(f"Saving model checkpoint to out/checkpoint-{step}")
            out.append(f"Configuration saved in out/checkpoint-{step}/config.json")
            out.append(f"Model weights saved in out/checkpoint-{step}/model.safetensors")
            out.append(f"{{'eval_loss': {2.0 + rng.random():.4f}, 'eval_runtime': 12.3, 'epoch': {step / steps:.2f}}}")
    out.append("Training completed. Do not forget to share your model on huggingface.co/models =)")
    out.append("{'train_runtime': 812.1, 'train_samples_per_second': 59.1, 'train_loss': 1.8312, 'epoch': 1.0}")
    return "\n".join(out) + "\n"


def megatron_srun(rng: random.Random, nodes: int = 2, iters: int = 8000) -> str:
    """Megatron-LM under srun --label over 16 ranks: iteration lines, skipped/nan counters, saves."""
    ranks = nodes * 8
    out = []
    out += _nccl_init(rng, ranks, lambda r: f"{r}: ")
    out.append("0: > initializing torch distributed ...")
    out.append("0: WARNING: overriding default arguments for tokenizer_type:GPT2BPETokenizer")
    for it in range(10, iters + 1, 10):
        out.append(
            f"0:  [2026-11-30 12:{it // 600 % 60:02d}:{it // 10 % 60:02d}] iteration {it:8d}/  500000 | "
            f"consumed samples: {it * 512:12d} | elapsed time per iteration (ms): {rng.uniform(900, 950):.1f} | "
            f"learning rate: {1.5e-4:.3E} | global batch size:   512 | lm loss: {7.0 / (1 + it / 500):.6E} | "
            f"loss scale: 1.0 | grad norm: {rng.uniform(0.2, 2.0):.3f} | number of skipped iterations:   0 | "
            "number of nan iterations:   0 |"
        )
        if it % 500 == 0:
            out.append(f"0: saving checkpoint at iteration {it:7d} to /lustre/ckpt/gpt")
            out.append(
                f"0:   successfully saved checkpoint from iteration {it:7d} to /lustre/ckpt/gpt [ t 1/1, p 1/1 ]"
            )
        for r in rng.sample(range(1, ranks), 2):
            out.append(
                f"{r}: [Rank {r}] (after {it} iterations) memory (MB) | allocated: 14211.5 | max allocated: "
                "41718.2 | reserved: 43210.0 | max reserved: 43210.0"
            )
    out += [f"{r}: {PG_NOT_DESTROYED}" for r in range(ranks)]
    out += _nccl_teardown(ranks, lambda r: f"{r}: ")
    return "\n".join(out) + "\n"


def lightning(rng: random.Random, epochs: int = 6, batches: int = 400) -> str:
    """PyTorch Lightning DDP on 2 GPUs with the usual start-up warnings."""
    out = [
        "GPU available: True (cuda), used: True",
        "TPU available: False, using: 0 TPU cores",
        "Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/2",
        "Initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/2",
        "----------------------------------------------------------------------------------------------------",
        "distributed_backend=nccl",
        "All distributed processes registered. Starting with 2 processes",
        "LOCAL_RANK: 1 - CUDA_VISIBLE_DEVICES: [0,1]",
        "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1]",
        "/usr/lib/python3.11/site-packages/lightning/pytorch/trainer/connectors/data_connector.py:424: The "
        "'train_dataloader' does not have many workers which may be a bottleneck. Consider increasing the value of the "
        "`num_workers` argument` to `num_workers=31` in the `DataLoader` to improve performance.",
        "  | Name  | Type       | Params | Mode ",
        "0 | model | GPT        | 124 M  | train",
    ]
    for epoch in range(epochs):
        for b in range(0, batches + 1, 2):
            out.append(
                f"Epoch {epoch}: {b * 100 // batches:3d}%|{'█' * (b * 10 // batches):<10}| {b}/{batches} "
                f"[00:{b // 20:02d}<00:10, 19.{rng.randrange(10)}it/s, v_num=3, train_loss={3.0 / (1 + epoch + b / batches):.3f}]"
            )
        out.append(
            f"Epoch {epoch}, global step {(epoch + 1) * batches}: 'val_loss' reached {2.5 / (1 + epoch):.5f} "
            f"(best {2.5 / (1 + epoch):.5f}), saving model to 'ckpt/epoch={epoch}-step={(epoch + 1) * batches}.ckpt' as top 1"
        )
    out.append("`Trainer.fit` stopped: `max_epochs=6` reached.")
    return "\n".join(out) + "\n"


def apex_warmup(rng: random.Random, ranks: int = 4, steps: int = 3000) -> str:
    """Apex/Megatron-style loss scaler: a handful of overflows at warm-up, then stable."""
    out = []
    for step in range(1, steps + 1):
        if step in (1, 2, 3, 5, 8):
            out.append(
                f"[rank0]: Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to {2 ** (16 - step)}"
            )
        r = step % ranks
        out.append(
            f"[rank{r}]: 2026-11-30 12:00:{step % 60:02d},000 INFO train: step {step} loss {3 / (1 + step / 100):.4f} "
            f"| lr 1.0e-04 | grad_norm {rng.uniform(0.1, 1):.3f}"
        )
    out.append("[rank0]: 2026-11-30 13:00:00,000 INFO train: finished 3000 steps, exit 0")
    out += [f"[rank{r}]: {PG_NOT_DESTROYED}" for r in range(ranks)]
    return "\n".join(out) + "\n"


GENERATORS: dict[str, Callable[[random.Random], str]] = {
    "deepspeed_fp16.log": deepspeed_fp16,
    "hf_trainer.log": hf_trainer,
    "megatron_srun.log": megatron_srun,
    "lightning.log": lightning,
    "apex_warmup.log": apex_warmup,
}


def healthy_logs() -> dict[str, str]:
    return {name: gen(random.Random(name)) for name, gen in GENERATORS.items()}


# Text about failures that is not a log: people in an incident channel, and documentation. A signature that fires
# on a failure's name in a sentence (OUT_OF_MEMORY, OOMKilled, "NCCL timeout") fires on prose; the README once
# came out as a critical OOM kill from one such word. The documents are this project's own.
CHAT = """\
hey all, is anyone else seeing jobs end OUT_OF_MEMORY on the a100 partition since the upgrade?
my llama pod got OOMKilled again overnight, is the node pool smaller now?
@oncall the 70b run died around step 12k, looks like an NCCL timeout on rank 3 but the other ranks only show the watchdog
did someone change NCCL_SOCKET_IFNAME on the new nodes? half my jobs hang at init
ok so it was a CUDA OOM after all, I bumped the micro batch from 4 to 8 and forgot about it
loss went NaN right after the warmup ended, going to try a lower peak lr
the checkpoint save hung for 40 minutes and then slurm killed it for the time limit
disk quota exceeded on /scratch again, please clean up your old checkpoints
Xid 79 on gpu-node-07 this morning, can we drain it?
torchrun keeps saying ChildFailedError but the real error is further up, how do I find it?
fyi segfault in the dataloader workers went away once we pinned pillow
rank 0 was fine, rank 5 was the one that ran out of host memory
is the NCCL watchdog timeout 10 minutes by default or 30?
the job got preempted twice today, we should add --requeue
I think the sacct state says TIMEOUT not FAILED for that one
anyone know why torch.load refuses my checkpoint since 2.6? weights_only or something
thanks! the fix worked, training is past step 20k now
please don't run scancel on other people's jobs :)
the rendezvous timed out because the master node was still pulling the image
"""
DOCUMENTS = ("README.md", "docs/architecture.md", "docs/coverage.md")


def prose_texts(root) -> dict[str, str]:
    """{name: text} of the chat above and the project's documents under `root`."""
    return {"chat.txt": CHAT, **{name: (root / name).read_text(encoding="utf-8") for name in DOCUMENTS}}
