"""`denpex watch`: growing logs read incrementally, alerts said once, the end of the run, resuming.

Writers are real processes appending to real files while the watcher polls; durations are fractions
of a second. Where a threshold must be hit exactly, the watcher's clock is a counter instead.
"""

import argparse
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT
from pty_terminal import sigint_as_a_shell_leaves_it
from test_config import test_invalid_config_names_file_key_and_reason as refused_with_file_key_and_reason

from bot.cli import build_parser
from bot.config import Config, WatchSection, load_config
from bot.watch import add_cli, cmd_watch
from bot.watching import Watcher
from bot.watching.lines import Recognisers
from signatures import diagnose_sources, source_from_bytes

WRITER = """
import json, sys, time
log, plan = sys.argv[1], json.load(open(sys.argv[2]))
for text, pause in plan:
    with open(log, "a") as fh:
        fh.write(text)
    time.sleep(pause)
"""

OOM = (
    "[rank3]: Traceback (most recent call last):\n"
    '[rank3]:   File "/workspace/train.py", line 211, in <module>\n'
    "[rank3]:     loss.backward()\n"
    '[rank3]:   File "/usr/lib/python3.11/site-packages/torch/_tensor.py", line 522, in backward\n'
    "[rank3]:     torch.autograd.backward(\n"
    "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity "
    "of 79.10 GiB of which 1.06 GiB is free.\n"
)

# an exception raised while loading a batch: only its frames make it a data error
DATA_FRAMES = (
    "[rank2]: Traceback (most recent call last):\n"
    '[rank2]:   File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/_utils/fetch.py", '
    "line 54, in fetch\n"
    "[rank2]:     data = [self.dataset[idx] for idx in possibly_batched_index]\n"
    '[rank2]:   File "/work/train.py", line 16, in __getitem__\n'
    "[rank2]:     rec = json.loads(self.lines[i])\n"
)
DATA_ERROR = "[rank2]: json.decoder.JSONDecodeError: Expecting ',' delimiter: line 2 column 1 (char 58)\n"
WATCHDOG = (
    "[rank0]:[E1130 13:10:00.000000000 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation "
    "timeout: WorkNCCL(SeqNum=60, OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, Timeout(ms)=600000) ran "
    "for 600031 milliseconds before timing out.\n"
)


def steps(first, last, ranks=(0,), pause=0.0):
    return [
        ["".join(f"[rank{r}]: step {s} | loss 2.31 | lr 3.0e-04\n" for r in ranks), pause]
        for s in range(first, last + 1)
    ]


def fast(**overrides) -> WatchSection:
    values = dict(
        interval="0.05s",
        stall_after="5s",
        save_warn_after="10s",
        save_slow_factor=3.0,
        slow_factor=2.0,
        window=50,
        idle_exit="10s",
    )
    return WatchSection(**{**values, **overrides})


def start_writer(tmp_path, log, plan) -> subprocess.Popen:
    script, plan_file = tmp_path / "writer.py", tmp_path / f"plan{len(list(tmp_path.glob('plan*')))}.json"
    script.write_text(WRITER)
    plan_file.write_text(json.dumps(plan))
    return subprocess.Popen([sys.executable, str(script), str(log), str(plan_file)])


def watch_writer(watcher, writer, after=0.3, interval=0.05):
    """Poll while the writer runs and a little after; the alerts (notices left out)."""
    alerts = []
    deadline = None
    while deadline is None or time.monotonic() < deadline:
        if deadline is None and writer.poll() is not None:
            deadline = time.monotonic() + after
        alerts += watcher.poll()
        time.sleep(interval)
    assert writer.returncode == 0
    return [a for a in alerts if not a.notice]


class Clock:
    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        return self.now


def append(path, text):
    with open(path, "a") as fh:
        fh.write(text)


# ---- the detectors, against real writers -------------------------------------------------------


def test_a_save_that_hangs_after_two_quick_saves_is_reported_once(tmp_path, matcher):
    log = tmp_path / "train.log"
    log.touch()
    plan = steps(1, 10, pause=0.01)
    for at in (10, 20):
        plan += [
            [f"[rank0]: Saving model checkpoint to /ckpt/checkpoint-{at}\n", 0.05],
            [f"[rank0]: Model weights saved in /ckpt/checkpoint-{at}/model.safetensors\n", 0.0],
        ]
        plan += steps(at + 1, at + 10, pause=0.01)
    plan += [["[rank0]: Saving model checkpoint to /ckpt/checkpoint-30\n", 3.0]]  # and it hangs
    watcher = Watcher([str(log)], fast(stall_after="0.5s"), matcher)
    alerts = watch_writer(watcher, start_writer(tmp_path, log, plan))
    assert [a.kind for a in alerts] == ["slow_save"]
    alert = alerts[0]
    assert alert.message.startswith("save of step 30 has been running ")
    assert "this run's previous 2 saves took" in alert.message
    assert alert.facts["running_seconds"] > alert.facts["limit_seconds"] >= 3 * min(alert.facts["previous_seconds"])
    assert len(alert.facts["previous_seconds"]) == 2 and alert.file == str(log)


def test_steps_that_stop_are_one_stall_naming_the_rank_behind(tmp_path, matcher):
    log = tmp_path / "train.log"
    log.touch()
    plan = steps(1, 27, ranks=(0, 1, 2, 3), pause=0.01) + steps(28, 30, ranks=(0, 1, 2), pause=0.01)
    plan += [["[rank0]: NCCL INFO comm 0x5581 rank 0 nranks 4 - still here\n", 0.1] for _ in range(15)]
    watcher = Watcher([str(log)], fast(stall_after="0.6s"), matcher)
    alerts = watch_writer(watcher, start_writer(tmp_path, log, plan))
    assert [a.kind for a in alerts] == ["stall"]  # the output went on: a stall, not silence
    assert "no new training step for" in alerts[0].message and "the last was step 30" in alerts[0].message
    assert "rank 3 stopped earlier, at step 27" in alerts[0].message
    assert alerts[0].rank == 3 and alerts[0].facts["behind"] == [3]


def test_a_stall_is_said_again_only_after_steps_resumed(tmp_path, matcher):
    log, clock = tmp_path / "train.log", Clock()
    log.touch()
    watcher = Watcher([str(log)], fast(stall_after="10s"), matcher, clock=clock)
    kinds = []
    for burst in range(3):
        append(log, "".join(f"step {s} loss 2.0 lr 1e-4\n" for s in range(burst * 10, burst * 10 + 10)))
        for _ in range(5):
            kinds += [a.kind for a in watcher.poll()]
            clock.now += 5
    assert kinds == ["stall", "stall", "stall"]


def test_log_silence_is_the_fallback_when_no_line_has_a_step(tmp_path, matcher):
    log, clock = tmp_path / "job.out", Clock()
    log.write_text("loading shards\n")
    watcher = Watcher([str(log)], fast(stall_after="60s"), matcher, clock=clock)
    said = []
    for _ in range(30):
        said += watcher.poll()
        clock.now += 10
    assert [a.kind for a in said] == ["silence"]
    assert said[0].message.startswith("no new output for 60 s") and said[0].facts["seconds_since_output"] >= 60


def test_slower_steps_name_the_rank_whose_steps_slowed(tmp_path, matcher):
    clock = Clock()
    logs = [tmp_path / f"rank{r}.log" for r in range(4)]
    for path in logs:
        path.touch()
    watcher = Watcher([str(tmp_path)], fast(window=10, slow_factor=2.0), matcher, clock=clock)
    step = {r: 0 for r in range(4)}
    said = []
    for tick in range(120):
        for r, path in enumerate(logs):
            slow = r == 2 and tick >= 60  # rank 2 now takes 3 ticks per step
            if not slow or tick % 3 == 0:
                step[r] += 1
                append(path, f"step {step[r]} | loss 2.0 | lr 1e-4\n")
        said += [a for a in watcher.poll() if not a.notice]
        clock.now += 1
    assert [a.kind for a in said] == ["slow_steps"]
    assert said[0].rank == 2 and said[0].facts["ranks"] == [2]
    assert said[0].facts["ratio"] >= 2 and "on rank 2" in said[0].message
    assert said[0].facts["earlier_seconds_per_step"] == pytest.approx(1.0)


def test_time_spent_saving_is_not_step_time(tmp_path, matcher):
    log, clock = tmp_path / "train.log", Clock()
    log.touch()
    watcher = Watcher([str(log)], fast(window=5, save_warn_after="1m"), matcher, clock=clock)
    step, said = 0, []
    for poll in range(60):
        if poll % 8 == 7:
            append(log, f"saving checkpoint to /ckpt/step_{step}\n")
        elif poll % 8 == 0 and poll:
            append(log, f"saved checkpoint /ckpt/step_{step}\n")
        if poll % 8 != 7:  # 5 steps a poll, none while saving
            append(log, "".join(f"step {step + i} | loss 2.0 | lr 1e-4\n" for i in range(1, 6)))
            step += 5
        said += watcher.poll()
        clock.now += 5
    assert said == [] and len(watcher.saves.durations) == 7
    assert watcher.progress.samples["-"] and max(v for v, _ in watcher.progress.samples["-"]) == 1.0


@pytest.mark.parametrize("name,prefix", [("train.log", "[rank3]: "), ("rank3.log", "")])
@pytest.mark.parametrize("cut", ["mid-line", "before the error line", "inside the first frame"])
def test_an_oom_traceback_split_between_polls_is_one_diagnosis(tmp_path, matcher, name, prefix, cut):
    log = tmp_path / name
    oom = OOM.replace("[rank3]: ", prefix)
    cut = {
        "mid-line": len(oom) // 2,
        "before the error line": oom.index("torch.OutOfMemoryError") - len(prefix),
        "inside the first frame": oom.index("\n") + 5,
    }[cut]
    log.write_text("".join(f"{prefix}step {s} | loss 2.31 | lr 3.0e-04\n" for s in range(1, 301)))
    watcher = Watcher([str(log)], fast(), matcher)
    assert watcher.poll() == []
    append(log, oom[:cut])
    assert [a for a in watcher.poll() if a.kind == "diagnosis"] == []
    append(log, oom[cut:])
    said = watcher.poll()
    append(log, WATCHDOG)  # diagnosed with the OOM above it as context
    said += watcher.poll()
    append(log, oom.splitlines(keepends=True)[-1])  # the same failure printed again
    said += watcher.poll() + watcher.poll()
    assert [a.kind for a in said] == ["diagnosis"]
    alert = said[0]
    assert alert.rank == 3 and alert.facts["class"] == "cuda_oom" and alert.file == str(log)
    assert alert.facts["line"] == 300 + oom.count("\n")  # the line in the file, not in the poll's chunk
    assert log.read_text().splitlines()[alert.facts["line"] - 1].endswith("is free.")
    assert alert.report is not None and alert.report.top is not None and alert.report.top.class_ == "cuda_oom"


def test_the_lines_before_a_poll_are_the_context_of_what_it_reads(tmp_path, matcher):
    """The frames above an exception decide its class (raised while loading a batch: a data error); they
    were read by the poll before the exception was written."""
    frames, error = DATA_FRAMES, DATA_ERROR
    alone = diagnose_sources([source_from_bytes("train.log", error.encode())], matcher)
    assert alone.top is not None
    assert alone.top.class_ != "tokenizer_or_data_error"  # without its frames, the exception is a plain one
    log = tmp_path / "train.log"
    log.write_text("[rank2]: step 1 | loss 2.0 | lr 1e-4\n")
    watcher = Watcher([str(log)], fast(), matcher)
    watcher.poll()
    append(log, frames)
    assert watcher.poll() == []
    append(log, error)
    said = watcher.poll()
    assert [(a.kind, a.rank, a.facts["class"], a.facts["line"]) for a in said] == [
        ("diagnosis", 2, "tokenizer_or_data_error", 7)
    ]


def test_the_same_failure_on_the_same_rank_is_said_once_even_far_apart(tmp_path, matcher):
    log = tmp_path / "train.log"
    log.write_text("[rank3]: step 1 | loss 2.0 | lr 1e-4\n")
    watcher = Watcher([str(log)], fast(), matcher)
    said = watcher.poll()
    for _ in range(3):  # the earlier OOM is long out of the context when it comes again
        append(log, OOM + "".join(f"[rank3]: step {s} | loss 2.0 | lr 1e-4\n" for s in range(500)))
        said += watcher.poll()
    assert [(a.kind, a.rank, a.facts["line"]) for a in said] == [("diagnosis", 3, 7)]


def test_an_oom_written_by_a_process_in_two_pieces_is_one_diagnosis(tmp_path, matcher):
    log = tmp_path / "train.log"
    log.touch()
    cut = OOM.index("[rank3]:     torch.autograd") + 12
    plan = steps(1, 20, ranks=(0, 3), pause=0.005) + [[OOM[:cut], 0.4], [OOM[cut:], 0.0]]
    watcher = Watcher([str(log)], fast(), matcher)
    alerts = watch_writer(watcher, start_writer(tmp_path, log, plan))
    assert [a.kind for a in alerts] == ["diagnosis"]
    assert alerts[0].rank == 3 and alerts[0].facts["class"] == "cuda_oom" and alerts[0].facts["line"] == 46


# ---- the reader ------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["truncated", "replaced", "rewritten"])
def test_a_truncated_rotated_or_rewritten_file_is_read_again_from_the_start(tmp_path, matcher, how):
    log = tmp_path / "train.log"
    log.write_text("".join(f"[rank0]: step {s} | loss 2.0 | lr 1e-4\n" for s in range(1, 51)))
    watcher = Watcher([str(log)], fast(), matcher)
    watcher.poll()
    fresh = "[rank3]: step 1 | loss 2.0 | lr 1e-4\n" + OOM
    if how == "truncated":
        log.write_text(fresh)
    elif how == "replaced":
        log.rename(tmp_path / "train.log.1")
        log.write_text(fresh)
    else:  # copied and truncated, then written past the old size before the next look
        log.write_text(fresh * 10)
    said = watcher.poll()
    assert [a.kind for a in said] == ["file_reset", "diagnosis"]
    said_why = {"truncated": "shrank from", "replaced": "was replaced", "rewritten": "was rewritten"}[how]
    assert said_why in said[0].message
    assert said[1].facts["line"] == fresh.count("\n")  # counted from the new start
    assert watcher.bytes_read == log.stat().st_size


def test_a_poll_reads_only_what_was_appended(tmp_path, matcher):
    log = tmp_path / "train.log"
    block = "".join(f"[rank{r}]: step {s} | loss 2.0 | lr 1e-4\n" for s in range(1000) for r in range(8))
    with open(log, "w") as fh:
        for _ in range(20):
            fh.write(block)
    watcher = Watcher([str(log)], fast(), matcher)
    watcher.poll()
    assert watcher.bytes_read == log.stat().st_size
    for n in (1, 3000, 77):
        added = "".join(f"[rank0]: step {s} | loss 2.0 | lr 1e-4\n" for s in range(n))
        append(log, added[:-7])  # the last line not finished yet
        watcher.poll()
        assert watcher.bytes_read == len(added) - 7
        append(log, added[-7:])
        watcher.poll()
        assert watcher.bytes_read == 7
    assert watcher.tails.files[str(log)].lines == 20 * len(block.splitlines()) + 3078


def test_new_log_files_in_a_directory_are_followed(tmp_path, matcher):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "rank0.log").write_text("[rank0]: step 1 | loss 2.0 | lr 1e-4\n")
    watcher = Watcher([str(logs)], fast(), matcher)
    assert watcher.poll() == []
    (logs / "attempt_0" / "1").mkdir(parents=True)
    (logs / "attempt_0" / "1" / "stderr.log").write_text(OOM.replace("[rank3]: ", ""))
    (logs / "model.pt").write_bytes(b"\x80\x04 not a log: torch.OutOfMemoryError: CUDA out of memory.\n")
    said = watcher.poll()
    assert [(a.kind, a.file) for a in said] == [
        ("file_new", str(logs / "attempt_0" / "1" / "stderr.log")),
        ("diagnosis", str(logs / "attempt_0" / "1" / "stderr.log")),
    ]
    assert said[1].rank == 1  # torchelastic's attempt_0/<rank>/stderr.log


# ---- state and resuming ----------------------------------------------------------------------


def test_the_state_round_trips_through_json_and_a_resumed_watch_says_nothing_twice(tmp_path, matcher):
    log, clock = tmp_path / "train.log", Clock()
    log.touch()
    first = Watcher([str(log)], fast(), matcher, clock=clock)
    for at in (10, 20):
        append(log, "".join(f"[rank0]: step {s} | loss 2.0 | lr 1e-4\n" for s in range(at - 9, at + 1)))
        first.poll()
        clock.now += 1
        append(log, f"[rank0]: saving checkpoint to /ckpt/step_{at}\n")
        first.poll()
        clock.now += 2
        append(log, "[rank0]: saved checkpoint\n")
        first.poll()
        clock.now += 1
    # an OOM, the frames of a traceback whose exception is not written yet, and an unfinished line
    append(log, "[rank0]: step 21 | loss 2.0 | lr 1e-4\n" + OOM + DATA_FRAMES + "[rank0]: step 22 | lo")
    assert [a.kind for a in first.poll()] == ["diagnosis"]
    state = json.loads(json.dumps(first.state()))
    assert state == first.state()

    clock.now += 1
    resumed = Watcher([str(log)], fast(), matcher, clock=clock, state=state)
    assert resumed.poll() == [] and resumed.bytes_read == len("[rank0]: step 22 | lo")
    assert resumed.saves.durations == first.saves.durations and len(resumed.saves.durations) == 2
    append(log, "ss 2.0 | lr 1e-4\n" + DATA_ERROR)
    said = resumed.poll()
    assert resumed.progress.last["0"]["step"] == 22  # the unfinished line was read whole
    assert [(a.kind, a.rank, a.facts["class"]) for a in said] == [("diagnosis", 2, "tokenizer_or_data_error")]
    append(log, OOM.replace("rank3", "rank5").replace("GPU 3", "GPU 5"))
    said = resumed.poll()
    assert [(a.kind, a.rank) for a in said] == [("diagnosis", 5)] and "on rank 5 as well" in said[0].message


def loss_lines(first, losses, ranks=(0,)):
    return "".join(
        f"[rank{r}]: step {s} | loss {loss:.4f} | lr 3.0e-04\n" for s, loss in enumerate(losses, first) for r in ranks
    )


def test_a_loss_that_diverges_is_said_once_while_the_run_goes_on_and_after_a_restart(tmp_path, matcher):
    log, clock = tmp_path / "train.log", Clock()
    log.touch()
    watcher = Watcher([str(log)], fast(), matcher, clock=clock)
    falling = [4.0 - 0.1 * i for i in range(30)]  # 4.0 -> 1.1
    append(log, loss_lines(1, falling, ranks=(0, 1)))
    assert [a for a in watcher.poll() if not a.notice] == []
    clock.now += 1
    # rank 1 climbs to ~6 and stays there; rank 0 has one spike it recovers from
    append(log, loss_lines(31, [1.1, 1.05, 1.0], ranks=(0, 1)))
    append(log, loss_lines(34, [1.0, 5.8, 1.0, 0.98, 0.97, 0.96], ranks=(0,)))
    append(log, loss_lines(34, [3.9, 5.2, 6.1, 6.3, 6.0, 6.2], ranks=(1,)))
    said = [a for a in watcher.poll() if not a.notice]
    assert [(a.kind, a.rank) for a in said] == [("diverging", 1)]
    alert = said[0]
    assert alert.facts["signature"] == "train.loss_diverged" and alert.facts["class"] == "loss_spike_divergence"
    # a series this long is judged on its running median: the low is the logged line where that median bottomed out
    assert alert.facts["low"] == "1.05" and alert.facts["low_at"] == "step 32" and alert.facts["up_at"] == "step 34"
    assert alert.message.startswith(
        "the loss is diverging on rank 1: it fell to 1.05 (step 32), rose to 3.9 at step 34"
    )
    assert "is still 6.2 at step 39" in alert.message and alert.file == str(log)

    # every rank of a job that diverges together: one alert naming them
    everyone = Watcher([str(tmp_path / "all.log")], fast(), matcher, clock=clock)
    append(tmp_path / "all.log", loss_lines(1, falling + [1.0, 3.9, 5.2, 6.1, 6.3], ranks=range(8)))
    said = [a for a in everyone.poll() if not a.notice]
    assert [a.kind for a in said] == ["diverging"] and said[0].facts["ranks"] == list(range(8))
    assert "diverging on ranks 0-7" in said[0].message

    state = json.loads(json.dumps(watcher.state()))
    clock.now += 1
    resumed = Watcher([str(log)], fast(), matcher, clock=clock, state=state)
    append(log, loss_lines(40, [6.4, 6.5], ranks=(1,)))
    assert [a for a in resumed.poll() if not a.notice] == []  # said before the restart: not again


def test_a_loss_spike_the_run_recovers_from_and_eval_losses_are_not_alerts(tmp_path, matcher):
    log = tmp_path / "train.log"
    log.write_text(
        loss_lines(1, [3.0 - 0.05 * i for i in range(40)])
        + loss_lines(41, [9.0, 8.5, 7.9, 1.1, 1.0, 0.99, 0.98])
        + "".join(f"Validation: loss {v}\n" for v in (0.5, 0.4, 3.0, 4.0, 5.0, 6.0, 7.0))
    )
    watcher = Watcher([str(log)], fast(), matcher)
    assert [a for a in watcher.poll() if not a.notice] == []


def test_a_poll_reads_a_bounded_sample_of_loss_lines_and_always_the_newest(tmp_path, matcher):
    from signatures import TrendFollower
    from signatures._follow import LINES_PER_BLOCK

    follower = TrendFollower(matcher.library)
    data = loss_lines(1, [2.0] * 5000).encode()
    assert follower.offer_block(data, 1, 0) <= LINES_PER_BLOCK + 1
    series = next(iter(follower.series.values()))
    assert series.last is not None and series.last.step == 5000 and series.last.line == 5000

    # a small poll reads every loss line, with its line number; lines that only mention a loss are passed over
    small = TrendFollower(matcher.library)
    noisy = "".join(f"[rank0]: loss scaler: Validation: loss 9.9 at {s}\n" + loss_lines(s, [1.5]) for s in range(1, 41))
    assert small.offer_block(noisy.encode(), 101, 0) >= 40
    (only,) = small.series.values()
    assert only.offered == 40 and [p.line for p in only.points[:3]] == [102, 104, 106]


def test_a_state_from_other_paths_is_not_read(tmp_path, matcher):
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    a.write_text("step 1 loss 2\n")
    b.write_text("step 1 loss 2\n")
    first = Watcher([str(a)], fast(), matcher)
    first.poll()
    state = first.state()
    assert list(state["files"]) == [str(a)]
    watcher = Watcher([str(b)], fast(), matcher, state=state)
    assert list(watcher.tails.files) == []
    with pytest.raises(ValueError, match="version"):
        Watcher([str(a)], fast(), matcher, state={**state, "version": 99})


# ---- recognising the formats -------------------------------------------------------------------


@pytest.mark.parametrize(
    "lines,expected",
    [
        (
            [
                "[rank0]: [Torch] Checkpoint global_step500 is about to be saved!",
                "[rank0]: [Torch] Saving /ckpt/global_step500/mp_rank_00_model_states.pt...",
                "[rank0]: [Torch] Saved /ckpt/global_step500/mp_rank_00_model_states.pt.",
                "[rank0]: [Torch] Checkpoint global_step500 is ready now!",
            ],
            [(False, 500), (False, 500), (True, None), (True, None)],
        ),
        (
            [
                "[INFO|trainer.py:3984] 2026-11-30 12:00:01,000 >> Saving model checkpoint to out/checkpoint-500",
                "[INFO|modeling_utils.py:3042] 2026-11-30 12:00:09,000 >> Model weights saved in out/checkpoint-500/model.bin",
            ],
            [(False, 500), (True, None)],
        ),
        (
            [
                "Epoch 0, global step 100: 'val_loss' reached 0.51 (best 0.51), saving model to '/ckpt/epoch=0-step=100.ckpt' "
                "as top 1"
            ],
            [(False, 100)],
        ),
        (
            [
                " > saving checkpoint at iteration     500 to /ckpt in torch_dist format",
                "  successfully saved checkpoint from iteration     500 to /ckpt",
            ],
            [(False, 500), (True, None)],
        ),
        (
            ["[rank0]: dcp.save -> /ckpt/step-300", "[rank0]: Finished saving the checkpoint in 4.21 seconds."],
            [(False, 300), (True, None)],
        ),
        (
            ["saving checkpoint to ckpt/step_0400.pt", "saved checkpoint ckpt/step_0400.pt"],
            [(False, 400), (True, None)],
        ),
        (['[rank0]:   File "/workspace/train.py", line 80, in saving checkpoint to disk'], []),  # a traceback frame
    ],
)
def test_save_lines_of_the_common_formats(library, lines, expected):
    found = Recognisers(library).saves(("\n".join(lines) + "\n").encode(), None)
    assert [(s.done, s.step) for s in found] == expected


@pytest.mark.parametrize(
    "line,rank,step",
    [
        ("[rank3]: step 120 | loss 2.31 | lr 3.0e-04", 3, 120),
        ("3: iteration      120/  10000 | consumed samples: 960 | lr: 1.0E-04 |", 3, 120),
        ("[default1]:iter 2930: loss 3.9408, time 1097.30ms", 1, 2930),
        ("Epoch 0:  45%|████▌     | 450/1000 [01:23<01:42,  5.37it/s, v_num=0]", None, 450),
        ("{'loss': 2.31, 'grad_norm': 1.2, 'learning_rate': 5e-05, 'epoch': 0.5}", None, None),
    ],
)
def test_step_lines_and_their_rank(library, line, rank, step):
    assert Recognisers(library).last_steps((line + "\n").encode(), b"", None, set()) == {rank: step}


# ---- configuration ----------------------------------------------------------------------------


def test_every_watch_key_is_documented_in_the_example_config():
    example = (ROOT / "config" / "denpex.example.toml").read_text()
    watch = example.split("\n[watch]\n", 1)[1]
    assert load_config(ROOT / "config" / "denpex.example.toml").watch == WatchSection()  # the defaults, as documented
    annotation = Config.model_fields["watch"].annotation
    assert annotation is not None
    for key in annotation.model_fields:
        assert f"\n{key} = " in watch, f"watch.{key} is not in the example config"


@pytest.mark.parametrize(
    "body,expected",
    [
        ("interval = '5x'", "watch.interval: String should match pattern"),
        ("stall_after = '0s'", "watch.stall_after: Value error, '0s' must be longer than 0s"),
        ("save_slow_factor = 0.5", "watch.save_slow_factor: Input should be greater than 1"),
        ("window = 1", "watch.window: Input should be greater than or equal to 2"),
        ("idle_after = '1m'", "watch.idle_after: Extra inputs are not permitted"),
    ],
)
def test_bad_watch_values_are_refused_with_the_key(tmp_path, body, expected):
    refused_with_file_key_and_reason(tmp_path, f"[watch]\n{body}\n", expected)


# ---- the command line ------------------------------------------------------------------------


def test_add_cli_registers_the_watch_subcommand():
    parser = argparse.ArgumentParser(prog="denpex")
    add_cli(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["watch", "a.log", "logs/", "--interval", "2s", "--json", "--wait", "1m"])
    assert args.func is cmd_watch and args.paths == ["a.log", "logs/"]
    assert (args.interval, args.json, args.wait, args.state) == ("2s", True, "1m", None)
    assert parser.parse_args(["watch", "--job", "local/42"]).job == "local/42"
    bare = parser.parse_args(["watch"])  # neither PATHs nor --job: refused by cmd_watch, with the reason
    assert cmd_watch(bare) == 2


def test_denpex_watch_is_wired_into_the_cli():
    parser = build_parser()  # bot/cli.py registers it with add_cli
    args = parser.parse_args(["watch", "train.log", "--state", "watch.json"])
    assert args.command == "watch" and args.func is cmd_watch and args.state == "watch.json"
    assert parser.parse_args(["diagnose", "train.log"]).func is not cmd_watch


def watch_cmd(*args):
    return [sys.executable, "-m", "bot.watch", *args]


def wait_for(state: Path, seconds=30):
    """Until the watch has polled once (it writes its state after each poll)."""
    deadline = time.monotonic() + seconds
    while not state.exists():
        assert time.monotonic() < deadline, "the watch never polled"
        time.sleep(0.05)


@pytest.fixture
def fast_config(tmp_path, monkeypatch):
    config = tmp_path / "denpex.toml"
    config.write_text('[watch]\ninterval = "0.05s"\nidle_exit = "0.5s"\nstall_after = "30s"\n')
    monkeypatch.setenv("DENPEX_CONFIG", str(config))
    return config


def test_a_run_that_completes_exits_0_and_says_only_that(tmp_path, fast_config):
    log, state = tmp_path / "train.log", tmp_path / "watch.json"  # the log appears once the watch has looked
    watch = subprocess.Popen(
        watch_cmd(str(log), "--json", "--wait", "20s", "--state", str(state)),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    plan = steps(1, 30, ranks=(0, 1), pause=0.01)
    plan += [["{'train_runtime': 12.5, 'train_samples_per_second': 40.1, 'train_loss': 2.1, 'epoch': 1.0}\n", 0]]
    wait_for(state)
    writer = start_writer(tmp_path, log, plan)
    out, err = watch.communicate(timeout=40)
    assert writer.wait(5) == 0
    assert watch.returncode == 0, err
    said = [json.loads(line) for line in out.splitlines()]
    assert [a["kind"] for a in said] == ["end"]
    assert said[0]["facts"]["outcome"] == "completed" and "'train_runtime'" in said[0]["message"]
    assert f"following {log}" in err


def test_a_run_that_fails_exits_1_with_one_diagnosis(tmp_path, fast_config):
    log = tmp_path / "train.log"
    log.touch()
    watch = subprocess.Popen(watch_cmd(str(log)), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    writer = start_writer(tmp_path, log, steps(1, 20, ranks=(0, 3), pause=0.01) + [[OOM[:100], 0.3], [OOM[100:], 0]])
    out, err = watch.communicate(timeout=40)
    assert writer.wait(5) == 0
    assert watch.returncode == 1, err
    lines = out.splitlines()
    assert len(lines) == 2 and " diagnosis " in lines[0] and " end " in lines[1]
    assert "(cuda_oom) on rank 3" in lines[0] and "run failed: CUDA out of memory" in lines[1]

    state = tmp_path / "watch.json"  # a resumed watch remembers the end and says nothing again
    for _ in range(2):
        again = subprocess.run(
            watch_cmd(str(log), "--state", str(state)), cwd=ROOT, capture_output=True, text=True, timeout=40
        )
        assert again.returncode == 1 and state.exists()
    assert again.stdout == ""


@pytest.mark.parametrize(
    "args,message",
    [
        (["{missing}"], "{missing}: no such file or directory"),
        (["{missing}", "--wait", "0.3s"], "{missing}: no such file or directory (waited 0.3s)"),
        (["{log}", "--interval", "5x"], "--interval '5x': not a duration"),
        (["{log}", "--wait", "soon"], "--wait 'soon': not a duration"),
        (["{log}", "--state", "{log}"], "not a watch state"),
    ],
)
def test_bad_input_exits_2_and_says_why(tmp_path, fast_config, args, message):
    names = {"missing": str(tmp_path / "nope.log"), "log": str(tmp_path / "train.log")}
    (tmp_path / "train.log").write_text("step 1 loss 2\n")
    started = time.monotonic()
    proc = subprocess.run(
        watch_cmd(*(a.format(**names) for a in args)), cwd=ROOT, capture_output=True, text=True, timeout=40
    )
    assert proc.returncode == 2 and message.format(**names) in proc.stderr and proc.stdout == ""
    if "--wait" in args and "0.3s" in args:
        assert time.monotonic() - started >= 0.3


def test_a_bad_watch_config_exits_2_naming_the_key(tmp_path, monkeypatch):
    config = tmp_path / "denpex.toml"
    config.write_text("[watch]\nsave_warn_after = 'half an hour'\n")
    monkeypatch.setenv("DENPEX_CONFIG", str(config))
    (tmp_path / "train.log").write_text("step 1 loss 2\n")
    proc = subprocess.run(watch_cmd(str(tmp_path / "train.log")), cwd=ROOT, capture_output=True, text=True, timeout=40)
    assert proc.returncode == 2 and "watch.save_warn_after" in proc.stderr


def test_ctrl_c_exits_130(tmp_path, fast_config):
    log, state = tmp_path / "train.log", tmp_path / "watch.json"
    log.write_text("step 1 loss 2.0 lr 1e-4\n")
    watch = subprocess.Popen(
        watch_cmd(str(log), "--state", str(state)),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_as_a_shell_leaves_it,
    )
    wait_for(state)
    watch.send_signal(signal.SIGINT)
    out, err = watch.communicate(timeout=20)
    assert watch.returncode == 130 and "interrupted" in err and out == ""
    assert json.loads(state.read_text())["files"][str(log)]["offset"] == log.stat().st_size
