"""Policy over the whole signature library: every rule proven, nothing fires on healthy logs."""

from collections import Counter

import pytest
from conftest import CORPUS, ROOT
from healthy_corpus import healthy_logs, prose_texts

from signatures import default_library, diagnose, diagnose_sources
from signatures._cases import run_case
from signatures._lint import lint_library
from signatures._sources import source_from_bytes

LIBRARY = default_library()
CASES = [(sig, i, case) for sig in LIBRARY.signatures for i, case in enumerate(sig.cases)]


def test_library_size_and_class_coverage():
    classes = Counter(s.cls for s in LIBRARY.signatures)
    assert len(LIBRARY.signatures) >= 40, len(LIBRARY.signatures)
    assert len(classes) >= 25, sorted(classes)


def test_lint_is_clean():
    assert lint_library(LIBRARY) == []


@pytest.mark.parametrize("sig", LIBRARY.signatures, ids=lambda s: s.id)
def test_every_signature_is_proven(sig):
    kinds = Counter(c.kind for c in sig.cases)
    assert kinds["match"] >= 2, "needs two match cases from different real formats"
    assert kinds["near_miss"] >= 1
    assert all(ref.startswith(("https://", "http://")) for ref in sig.references)


@pytest.mark.parametrize("sig,index,case", CASES, ids=[f"{s.id}#{i}" for s, i, _ in CASES])
def test_case(matcher, sig, index, case):
    result = run_case(matcher, sig, index, case)
    if case.todo:
        if result.ok:
            pytest.fail(f"case marked todo now passes: remove the todo ({case.todo})")
        pytest.xfail(case.todo)
    assert result.ok, result.problem
    if case.kind == "match":
        undeclared = [o for o in result.others if o not in sig.related and sig.id not in LIBRARY.get(o).related]
        assert not undeclared, f"also fires {undeclared}: tighten the patterns or declare `related`"


HEALTHY = healthy_logs()


@pytest.mark.parametrize("name", sorted(HEALTHY))
def test_generated_healthy_logs_fire_nothing(matcher, name):
    report = diagnose_sources([source_from_bytes(name, HEALTHY[name].encode())], matcher)
    assert report.stats.lines >= 1000
    assert report.diagnoses == [], [(d.signature, d.first_seen) for d in report.diagnoses]
    assert report.unrecognised == [], report.unrecognised


@pytest.mark.parametrize("name", ["024_healthy.log", "026_healthy.log"])
def test_real_healthy_runs_fire_nothing(matcher, name):
    report = diagnose([str(CORPUS / name)], matcher)
    assert report.diagnoses == [] and report.unrecognised == []


def test_healthy_logs_as_one_multi_source_job(matcher):
    report = diagnose_sources([source_from_bytes(n, t.encode()) for n, t in HEALTHY.items()], matcher)
    assert report.diagnoses == []


PROSE = prose_texts(ROOT)


@pytest.mark.parametrize("name", sorted(PROSE))
def test_prose_about_failures_fires_nothing_and_is_no_log(matcher, name):
    """A chat message or a document that names failures is neither diagnosed nor called healthy."""
    report = diagnose_sources([source_from_bytes(name, PROSE[name].encode())], matcher)
    assert report.diagnoses == [], [(d.signature, d.first_seen) for d in report.diagnoses]
    assert report.outcome == "not_a_log"
    assert report.to_json()["not_a_log"]["lines"] == PROSE[name].count("\n")


def test_no_literal_makes_healthy_lines_candidates(matcher):
    """The prefilter only pays off if literals are rare in normal output: at most 0.5% of healthy lines per literal."""
    from collections import Counter

    corpus = (
        "".join(HEALTHY.values()) + (CORPUS / "024_healthy.log").read_text() + (CORPUS / "026_healthy.log").read_text()
    )
    data = corpus.encode()
    lines = data.count(b"\n")
    lines_hit: dict[int, set[int]] = {}

    def on_hit(lid, _start, end, _flags, _ctx):
        lines_hit.setdefault(lid, set()).add(data.rfind(b"\n", 0, end))

    matcher.db.scan(data, on_hit)
    hot = Counter({lid: len(starts) for lid, starts in lines_hit.items()})
    offenders = [
        (n, sorted({c.sig.id if c.sig else "errorlike" for c in matcher.by_literal[lid]}))
        for lid, n in hot.most_common()
        if n > lines * 0.005
    ]
    assert not offenders, f"literals hitting more than 0.5% of {lines} healthy lines: {offenders}"
