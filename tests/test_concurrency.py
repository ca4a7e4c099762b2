"""One compiled library, many scans at once: threads and processes get the answers a lone scan gets."""

import json
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

from conftest import CORPUS, TESTS

from signatures import Report, diagnose, diagnose_sources, source_from_bytes

# real logs of several kinds and sizes: the corpus runs plus real-world excerpts
LOGS = sorted(CORPUS.glob("*.log")) + sorted((TESTS / "realworld" / "blind_c3" / "logs").glob("*"))[:14]


def _stable(report: Report) -> str:
    data = report.to_json()
    data["stats"].pop("seconds", None)
    return json.dumps(data, sort_keys=True)


def _diagnose_path(path: Path) -> str:
    return _stable(diagnose([str(path)]))


def test_the_logs_are_many_and_different():
    assert len(LOGS) >= 24
    assert len({p.read_bytes() for p in LOGS}) == len(LOGS)


def test_concurrent_scans_in_threads_give_the_single_threaded_answers(matcher):
    alone = {p: _stable(diagnose([str(p)], matcher)) for p in LOGS}
    start = threading.Barrier(16)

    def scan(path: Path) -> tuple[Path, str]:
        try:
            start.wait(timeout=10)  # the first 16 begin together
        except threading.BrokenBarrierError:
            pass
        return path, _stable(diagnose([str(path)], matcher))

    work = LOGS * 3  # every log scanned three times, 16 at a time, on one shared matcher
    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(scan, work))
    assert len(results) == len(work)
    for path, got in results:
        assert got == alone[path], path.name


def test_one_source_per_thread_many_times_over(matcher):
    """Short pastes, as a burst of Slack mentions sends them: each thread scans hundreds in a row."""
    body = (CORPUS / "033_host_oom_killed.log").read_bytes()
    expected = _stable(diagnose_sources([source_from_bytes("pasted log", body)], matcher))
    failures: list[str] = []

    def worker() -> None:
        for _ in range(40):
            got = _stable(diagnose_sources([source_from_bytes("pasted log", body)], matcher))
            if got != expected:
                failures.append(got)

    threads = [threading.Thread(target=worker) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    assert failures == []


def test_concurrent_scans_in_processes_give_the_single_threaded_answers(matcher):
    paths = LOGS[:8]
    alone = [_stable(diagnose([str(p)], matcher)) for p in paths]
    with ProcessPoolExecutor(max_workers=4, mp_context=multiprocessing.get_context("spawn")) as pool:
        got = list(pool.map(_diagnose_path, paths))
    assert got == alone
