"""What runs_r58 (61 real CPU runs) and blind_t32 (22 issue-thread excerpts), both scored once on 025c895 by
evaluators who did not see the attribution code, revealed; each fix with a variant that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose, diagnose_sources
from signatures._sources import source_from_bytes

TESTS = Path(__file__).resolve().parent
RUNS = TESTS / "corpus" / "blind_r58" / "runs"
LOGS = TESTS / "realworld" / "blind_t32" / "logs"


def _one(name: str) -> Path:
    (path,) = LOGS.glob(f"{name}_*.log")
    return path


def _texts(*pairs: tuple[str, str]):
    return [source_from_bytes(name, text.encode()) for name, text in pairs]


def test_torchelastics_failed_exit_barrier_after_every_rank_finished_is_no_failure(matcher):
    # 055: two torchrun agents; all four ranks log "training finished" and "done", then node 0's agent (the store's
    # host) is killed, and node 1's agent logs "Error waiting on exit barrier" with a DistNetworkError traceback,
    # which torchelastic's _exit_barrier catches with logger.exception and returns from
    run = RUNS / "055"
    report = diagnose([str(run / "node0.log"), str(run / "node1.log")], matcher)
    assert report.outcome == "healthy", top(report)
    # the same traceback printed by any other record is still an error on its own
    text = (run / "node1.log").read_text()
    assert "Error waiting on exit barrier" in text
    other = text.replace("Error waiting on exit barrier", "Error in the trainer's final sync")
    report = diagnose_sources(_texts(("node0.log", (run / "node0.log").read_text()), ("node1.log", other)), matcher)
    assert report.outcome != "healthy"
    # and so is a barrier that waited out its timeout: a peer node never finished (tests/test_review_s38.py)
    waited = text.replace(
        "Error waiting on exit barrier. Elapsed: 0.00", "Error waiting on exit barrier. Elapsed: 300."
    )
    assert waited != text
    report = diagnose_sources(_texts(("node0.log", (run / "node0.log").read_text()), ("node1.log", waited)), matcher)
    assert report.outcome != "healthy"


def test_a_ray_workers_boost_thread_failure_is_the_process_limit_not_the_oom_killer(matcher):
    # t32 009 (verl #472): Ray reports the WorkerDict actor dead ("connection error code 2 ... killed by SIGKILL by
    # OOM killer" among the possible causes); the worker's own line says boost could not start a thread: EAGAIN
    assert top(diagnose([str(_one("009"))], matcher))[:2] == ("os.cannot_fork_or_thread", "too_many_open_files")
    # Ray's message alone stays the OOM killer's
    alone = (
        "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: "
        "Worker unexpectedly exits with a connection error code 2. End of file.\n"
    )
    assert top_of_text(matcher, alone)[:2] == ("ray.worker_died_unexpectedly", "host_oom_killed")
    # EAGAIN from something other than starting a thread or process is no limit
    assert top_of_text(matcher, "pthread: Resource temporarily unavailable\n")[0] != "os.cannot_fork_or_thread"


def test_cublas_unable_to_load_a_cublaslt_symbol_is_a_library_mismatch(matcher):
    # t32 012 (verl #5659): every worker prints "Invalid handle. Cannot load symbol cublasLtGetVersion" and aborts;
    # the raylet's worker-died line comes first
    assert top(diagnose([str(_one("012"))], matcher))[:2] == ("cublas.lt_symbol_unloadable", "dependency_abi_mismatch")


def test_short_pastes_of_megatron_and_logging_lines_are_logs(matcher):
    # t32 007 (Megatron's start-up: timers and print_datetime) and 014 (a W&B warning and a logging.basicConfig
    # line) were called "not a training log"; they are healthy logs
    for name in ("007", "014"):
        assert diagnose([str(_one(name))], matcher).outcome == "healthy", name
    # prose that names W&B or Megatron's timers is still not a log
    chat = "wandb: is it worth switching to it?\nwe compared the time (ms) of both last week\n"
    assert diagnose_sources(_texts(("note.txt", chat)), matcher).outcome == "not_a_log"
