"""The rank that differs from the rest at the end (signatures/_oddity.py): its stack in the dumps printed as a hung
job was killed, or a number in its last lines where every other rank printed the same one. Made after the blind
runs_r21 (tests/corpus/blind_r21/runs), on those runs and on variants that must not trigger it."""

from __future__ import annotations

from pathlib import Path

from signatures import diagnose, diagnose_sources
from signatures._ends import EndFacts
from signatures._events import ScanResult
from signatures._oddity import odd_stack, odd_value
from signatures._sources import source_from_bytes

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r21" / "runs"

BACKWARD = [
    '  File "/venv/lib/python3.11/site-packages/torch/autograd/graph.py", line 979 in _engine_run_backward',
    '  File "/venv/lib/python3.11/site-packages/torch/_tensor.py", line 623 in backward',
    '  File "/job/train.py", line 165 in <module>',
]


def _ends(text: str, rank_hint: int | None = None, source: int = 0, into: EndFacts | None = None) -> EndFacts:
    ends = into or EndFacts()
    data = (text + "\n").encode()
    ends.sample(source, data, data.count(b"\n"), 2026, rank_hint)
    return ends


def _scan(ends: EndFacts, sources: int = 1) -> ScanResult:
    return ScanResult(
        [], {}, {}, set(), set(), 0, 0, [f"log{i}" for i in range(sources)], [],
        stacks=ends.stacks, end_values=ends.values,
    )  # fmt: skip


def _dump(rank: int, frames: list[str], current: bool = True) -> list[str]:
    head = "Current thread 0x00007fbcc29bcb80" if current else "Thread 0x00007fbcc29bcb80"
    return [f"{rank}: {head} (most recent call first):"] + [f"{rank}: {f}" for f in frames]


def test_faulthandler_dumps_under_srun_labels_give_each_rank_its_current_thread():
    lines = [
        "1: Thread 0x00007ff86fbff6c0 (most recent call first):",
        '1:   File "/job/train.py", line 148 in flusher',
        '1:   File "/usr/lib/python3.11/threading.py", line 982 in run',
        "1: ",
        *_dump(1, ['  File "/job/train.py", line 153 in <module>']),
        *_dump(0, BACKWARD),
        *_dump(2, BACKWARD),
        "srun: error: n1: tasks 0-2: Terminated",
    ]
    ends = _ends("\n".join(lines))
    assert ends.stacks[(0, 1)].frames == ("<module> (job/train.py:153)",)
    assert ends.stacks[(0, 0)].frames[0] == "_engine_run_backward (torch/autograd/graph.py:979)"
    assert ends.stacks[(0, 1)].line == 5  # its current thread's header, not the flusher thread's
    odd = odd_stack(_scan(ends))
    assert odd is not None and odd.rank == 1 and "ranks 0 and 2 both at _engine_run_backward" in odd.text


def test_a_dump_without_a_current_thread_compares_its_main_thread_the_last_listed():
    # faulthandler.dump_traceback_later: every thread listed, newest first; none marked current
    ends = EndFacts()
    for rank in range(3):
        frames = BACKWARD if rank != 2 else ['  File "/job/data.py", line 40 in read_shard']
        text = [
            *_dump(rank, ['  File "/job/train.py", line 148 in flusher'], current=False),
            "",
            *_dump(rank, frames, False),
        ]
        _ends("\n".join(line.split(": ", 1)[-1] for line in text), rank_hint=rank, source=rank, into=ends)
    odd = odd_stack(_scan(ends, 3))
    assert odd is not None and odd.rank == 2 and odd.source == "log2"


def test_py_spy_dumps_are_read_too_and_two_ranks_are_told_apart_by_who_waits():
    lines = [
        '0: Thread 4242 (active): "MainThread"',
        "0:     _engine_run_backward (torch/autograd/graph.py:979)",
        "0:     <module> (train.py:165)",
        '1: Thread 4243 (idle): "MainThread"',
        "1:     acquire (job/locks.py:12)",
        "1:     <module> (train.py:153)",
    ]
    odd = odd_stack(_scan(_ends("\n".join(lines))))
    assert odd is not None and odd.rank == 1 and "outside one, at acquire (job/locks.py:12)" in odd.text


def test_no_odd_stack_when_the_ranks_do_not_single_one_out():
    every_one_differs = [
        *_dump(0, BACKWARD),
        *_dump(1, ['  File "/a.py", line 1 in f']),
        *_dump(2, ['  File "/b.py", line 2 in g']),
    ]
    assert odd_stack(_scan(_ends("\n".join(every_one_differs)))) is None
    two_free = [*_dump(0, ['  File "/a.py", line 1 in f']), *_dump(1, ['  File "/b.py", line 2 in g'])]
    assert odd_stack(_scan(_ends("\n".join(two_free)))) is None
    traceback_not_dump = [
        "0: Traceback (most recent call last):",
        '0:   File "/a.py", line 1, in f',
        "0: ValueError: x",
    ]
    assert _ends("\n".join(traceback_not_dump)).stacks == {}


def _values(per_rank: dict[int, list[str]]) -> ScanResult:
    ends = EndFacts()
    for rank, lines in per_rank.items():
        _ends("\n".join(lines), rank_hint=rank, source=rank, into=ends)
    return _scan(ends, len(per_rank))


def test_the_one_rank_that_printed_a_different_number_in_the_same_line():
    lines = {
        r: [
            f"2026-12-06 00:16:38,16{r} INFO trainer: train step=16 loss=0.{r + 1}856 lr=0.05",
            f"2026-12-06 00:16:38,36{r} INFO trainer: syncing token histogram, buckets={40 if r == 1 else 32}",
            "Traceback (most recent call last):",
        ]
        for r in range(4)
    }
    odd = odd_value(_values(lines))
    assert (
        odd is not None and odd.rank == 1 and '"buckets=40" where ranks 0, 2 and 3 all printed "buckets=32"' in odd.text
    )


def test_no_odd_value_from_each_ranks_own_numbers_or_without_a_majority():
    own = {r: [f"step=16 loss=0.{r}1 local_rank={r % 2} node_rank={r // 3} pid=1{r} elapsed_ms={r}"] for r in range(3)}
    assert odd_value(_values(own)) is None  # loss, ranks, pids and times differ between ranks anyway
    two = {r: [f"syncing buckets={32 + 8 * r}"] for r in range(2)}
    assert odd_value(_values(two)) is None  # two ranks: either may be the odd one
    split = {r: [f"syncing buckets={32 + 8 * (r % 2)}"] for r in range(4)}
    assert odd_value(_values(split)) is None  # two against two
    two_odd = {r: [f"a={1 if r == 0 else 0} b={1 if r == 1 else 0}"] for r in range(4)}
    assert odd_value(_values(two_odd)) is None  # two ranks each odd in something: no one rank


def test_a_size_mismatch_one_rank_reported_is_laid_on_the_rank_with_the_odd_size(matcher):
    # bash-launched, per-rank files: rank 1 all-reduces a 40-bucket histogram where the others use 32; gloo on
    # rank 0 aborts on the size check, the others lose their peer
    d = diagnose([str(RUNS / "005_bash_launch")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("collective_mismatch", 1, "odd_value_out")
    assert "buckets=40" in d.attribution.reasons[0].text


def test_a_hang_ended_by_the_time_limit_is_laid_on_the_rank_whose_stack_differs(matcher):
    # srun --label: every rank stops logging at step 15; faulthandler prints the stacks on SIGTERM: ranks 0 and 2
    # in backward (DDP's all-reduce), rank 1's main thread at its own line 153 (a deadlock with a flusher thread)
    d = diagnose([str(RUNS / "009_nightly_sbatch")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("job_hang_no_progress", 1, "stalled_before_limit")
    assert "rank 1 alone at <module> (r21/gen/train.py:153)" in d.attribution.reasons[0].text


def test_a_spawned_worker_that_ran_out_of_batches_and_left(matcher):
    # mp.spawn, "[...][worker2]" logger names; rank 2's shard is short: "epoch finished after 22 batches, exiting"
    d = diagnose([str(RUNS / "003_finetune_spawn")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("nccl_remote_peer_exited", 2, "finished_early")


def test_the_worker_logger_name_is_the_rank_and_leaving_when_done_is_finishing():
    from signatures._context import prefix_of
    from signatures._lines import COMPLETION, parse_prefix

    line = "[2026-12-06 00:15:29,811][worker2] epoch finished after 22 batches, exiting"
    assert parse_prefix(line).rank == 2 and prefix_of(line.encode())[0] == 2
    assert COMPLETION.search(line.encode())
    assert COMPLETION.search(b"rank 2: no data for this rank, nothing to do -- exiting")
    for not_done in (b"WARNING exiting at step 162 on SIGTERM", b"emergency checkpoint written at step 66, exiting"):
        assert not COMPLETION.search(not_done)
    assert parse_prefix("DataLoader worker (pid 4242) is killed by signal").rank is None


def test_a_lost_peer_with_nothing_else_to_go_on_stays_unknown(matcher):
    log = "\n".join(
        [f"[rank{r}]: RuntimeError: Connection closed by peer [127.0.0.1]:29500" for r in (0, 1)]
        + [f"[rank{r}]: step=10 buckets=32" for r in (0, 1)]
    )
    d = diagnose_sources([source_from_bytes("console.log", (log + "\n").encode())], matcher).diagnoses[0]
    assert d.initiating_rank is None and d.attribution.rule == "peer_unknown"


def test_a_count_of_things_is_compared_too_but_not_a_measurement():
    lines = {r: [f"eval: confusion matrix over {5 if r == 0 else 4} classes seen in local shard"] for r in range(3)}
    odd = odd_value(_values(lines))
    assert odd is not None and odd.rank == 0 and '"5 classes" where ranks 1 and 2 both printed "4 classes"' in odd.text
    timed = {r: [f"eval took {9 if r == 0 else 4} seconds over {7 if r == 1 else 3} steps"] for r in range(3)}
    assert odd_value(_values(timed)) is None


def test_a_receivers_size_check_is_laid_on_the_rank_that_counted_differently(matcher):
    # blind_r20 018, srun --label: rank 0 all-reduced a 5x5 confusion matrix, ranks 1 and 2 a 4x4 one; gloo's size
    # check fired on rank 2, the receiver
    d = diagnose([str(RUNS.parent.parent / "blind_r20" / "runs" / "018_eval_metrics")], matcher).diagnoses[0]
    assert (d.class_, d.initiating_rank, d.attribution.rule) == ("collective_mismatch", 0, "odd_value_out")


def test_a_stall_watchdogs_aborts_with_stacks_are_a_hang_on_the_rank_not_waiting(matcher):
    # blind_r12 016, srun --label: every rank's own watchdog dumps its threads (faulthandler, from the watchdog's
    # thread) and aborts; the main threads of ranks 0 and 1 sit in backward (DDP's all-reduce), rank 2's in an
    # unbounded sampling loop; srun reports every task Aborted
    runs = RUNS.parent.parent / "blind_r12" / "runs"
    d = diagnose([str(runs / "016_watchdog_sample_loop")], matcher).diagnoses[0]
    assert (d.signature, d.class_, d.initiating_rank) == ("train.stack_dump_collective_wait", "job_hang_no_progress", 2)
    assert d.attribution.rule == "odd_stack_out" and "rank 2 alone at forward" in d.attribution.reasons[0].text


def test_the_main_thread_is_compared_not_the_thread_that_dumped():
    # a watchdog thread dumping all threads is faulthandler's "Current thread"; the main thread is listed last
    lines = []
    for rank in range(3):
        main = BACKWARD if rank != 1 else ['  File "/job/train.py", line 52 in sample']
        lines += _dump(rank, ['  File "/job/train.py", line 18 in watchdog'])
        lines += [f"{rank}: "] + _dump(rank, main, current=False)
    odd = odd_stack(_scan(_ends("\n".join(lines))))
    assert odd is not None and odd.rank == 1 and odd.others_waiting


def test_aborts_whose_stacks_single_out_no_waiting_majority_stay_the_launchers(matcher):
    log = [f"srun: error: n1: task {r}: Aborted" for r in range(3)]
    for rank in range(3):
        log += _dump(rank, [f'  File "/job/train.py", line {40 + rank} in step'], current=False)
    report = diagnose_sources([source_from_bytes("slurm-9.out", ("\n".join(log) + "\n").encode())], matcher)
    assert report.diagnoses[0].signature != "train.stack_dump_collective_wait"
