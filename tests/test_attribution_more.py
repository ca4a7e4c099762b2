"""Attribution on evidence the blind sets runs_r3 and runs_r4 showed: mp.spawn's per-process sections, a
thread's exception the process outlived, and a rank that never joined the rendezvous."""

from helpers import run


def report_of(matcher, text: str) -> dict:
    return run(matcher, ("console.log", text)).to_json()


def top(report: dict) -> dict:
    assert report["diagnoses"], report
    d = report["diagnoses"][0]
    assert d["attribution"]["rank"] == d["initiating_rank"] and d["attribution"]["reasons"]
    return d


GLOO_TIMEOUT = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:129] "
    "Timed out waiting 15000ms for send operation to complete"
)


def test_lines_under_an_mp_spawn_header_are_that_process_s(matcher):
    """mp.spawn prints process 2's traceback without a rank: its timeout is rank 2's, a knock-on."""
    log = "\n".join(
        [
            "torch.multiprocessing.spawn.ProcessRaisedException: ",
            "",
            "-- Process 2 terminated with the following error:",
            "Traceback (most recent call last):",
            '  File "/work/train.py", line 30, in worker',
            "    loss.backward()",
            GLOO_TIMEOUT,
        ]
    )
    d = top(report_of(matcher, log))
    assert d["class"] == "nccl_timeout"
    assert [e["rank"] for e in d["evidence"] if "Timed out" in e["text"]] == [2]


THREAD = """\
2026-12-03 13:31:19,614 worker.0 INFO step 5 loss -8.4680
2026-12-03 13:31:19,614 worker.2 INFO step 5 loss -8.4680
2026-12-03 13:31:19,614 worker.1 INFO step 5 loss -8.4680
Exception in thread prefetch:
Traceback (most recent call last):
  File "/usr/lib/python3.11/threading.py", line 1045, in _bootstrap_inner
    self.run()
  File "/work/train.py", line 19, in prefetch
    w = rec["weight"] * 2.0
TypeError: unsupported operand type(s) for *: 'NoneType' and 'float'
2026-12-03 13:31:20,165 worker.1 INFO step 10 loss -19.6231
2026-12-03 13:31:20,166 worker.2 INFO step 10 loss -19.6231
2026-12-03 13:31:20,167 worker.0 INFO step 10 loss -19.6231
[rank0]: {timeout}
[rank2]: {timeout}
""".replace("{timeout}", GLOO_TIMEOUT)


def test_a_thread_s_exception_is_the_cause_though_training_went_on(matcher):
    """The process outlived its prefetch thread and trained on until the queue ran dry; then the others timed
    out waiting for it. Training going on after an exception in the main thread means it was caught; in a
    thread it does not."""
    d = top(report_of(matcher, THREAD))
    assert (d["class"], d["initiating_rank"]) == ("python_exception_other", 1)


def test_the_one_rank_that_never_joined_the_rendezvous(matcher):
    log = "\n".join(
        [
            "[slot1] host=vm rank=1 world=3 master=127.0.0.1:29701 -> init_process_group",
            "[slot0] host=vm rank=0 world=3 master=127.0.0.1:29701 -> init_process_group",
            "[slot0] torch.distributed.DistStoreError: Timed out after 16 seconds waiting for clients. "
            "2/3 clients joined.",
        ]
    )
    d = top(report_of(matcher, log))
    assert (d["class"], d["initiating_rank"], d["attribution"]["rule"]) == ("rendezvous_failure", 2, "absent_rank")
