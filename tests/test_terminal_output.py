"""What `denpex` prints fits where it goes (issue 15 items 2, 5, 6): colour on a terminal only, the terminal's width,
commands that copy as one line, cut lines marked, ASCII when the terminal has no more, --brief, a traceback that
every rank printed shown once, template fields that were not given gone with their words, and a text that is no
training log said to be none. Run as a user runs it: real processes, on a pseudo-terminal where it matters."""

from __future__ import annotations

import json
import re
import subprocess

import pytest
from conftest import CORPUS, ROOT, denpex_cmd, run_denpex
from pty_terminal import ANSI, on_terminal

from signatures import default_matcher, diagnose, diagnose_sources, render_text, source_from_bytes
from signatures._cases import case_sources
from signatures._report import _COMMAND_LINE, _QUOTED_COMMAND
from signatures._template import PLACEHOLDER

ALL_RANKS_ENOSPC = CORPUS / "009_checkpoint_disk_full.log"  # the same ENOSPC traceback on ranks 0-3
EXAMPLE = ROOT / "examples" / "job_812345.tar.gz"
SGR = re.compile(r"\x1b\[[0-9;]*m")


def lines_of(output: str) -> list[str]:
    return [ANSI.sub("", line) for line in re.split(r"\r?\n", output)]


# -- colour ------------------------------------------------------------------------------------------------------


def test_colour_on_a_terminal_and_not_in_a_pipe():
    status, output = on_terminal(["diagnose", str(ALL_RANKS_ENOSPC)])
    assert status == 0 and SGR.search(output), output[:300]
    piped = run_denpex("diagnose", str(ALL_RANKS_ENOSPC))
    assert piped.returncode == 0 and b"\x1b" not in piped.stdout + piped.stderr


@pytest.mark.parametrize(
    "args,env",
    [
        (["diagnose", str(ALL_RANKS_ENOSPC)], {"NO_COLOR": "1"}),
        (["diagnose", "--color=never", str(ALL_RANKS_ENOSPC)], {}),
        (["--color=never", "diagnose", str(ALL_RANKS_ENOSPC)], {}),
        (["signatures", "--color=never", "list"], {}),
        (["signatures", "list"], {"NO_COLOR": "1"}),
    ],
)
def test_no_colour_when_asked_on_a_terminal(args, env):
    status, output = on_terminal(args, env=env)
    assert status == 0 and not SGR.search(output), repr(output[:300])


def test_color_always_colours_a_pipe_even_with_no_color():
    """An explicit flag beats the environment's default (https://no-color.org)."""
    env = {"NO_COLOR": "1", "PATH": "/usr/bin:/bin"}
    proc = subprocess.run(
        denpex_cmd() + ["diagnose", "--color=always", str(ALL_RANKS_ENOSPC)], capture_output=True, env=env, timeout=120
    )
    assert proc.returncode == 0 and SGR.search(proc.stdout.decode())


# -- width -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("columns", [50, 80, 132])
def test_signatures_list_fits_the_terminal(columns):
    status, output = on_terminal(["signatures", "list"], columns)
    assert status == 0
    shown = [line for line in lines_of(output) if line.strip()]
    too_wide = [line for line in shown if len(line) > columns]
    assert not too_wide, too_wide[:3]
    listing = run_denpex("signatures", "list").stdout.decode()  # a pipe: whole lines, for grep
    ids = [line.split()[0] for line in listing.splitlines()[:-2] if line.strip()]
    assert len(ids) > 200 and {line.split()[0] for line in shown} >= set(ids)  # every id whole, never cut


def test_the_report_fits_a_narrow_terminal_but_for_commands_and_quoted_log_lines():
    status, output = on_terminal(["diagnose", str(EXAMPLE)], 60)
    assert status == 0
    report = json.loads(run_denpex("diagnose", "--json", str(EXAMPLE)).stdout)
    top = report["diagnoses"][0]
    quoted = [ev["text"][:150] for ev in top["evidence"]]

    def may_be_wider(line: str) -> bool:
        """The verify command, a quoted log line (cut at 200 characters), or a line holding a path or a URL
        longer than the terminal: nothing to wrap it at."""
        return (
            line == "    " + top["verify"]
            or any(line.strip().startswith(q) for q in quoted)
            or any(len(token) > 60 - 8 for token in line.split())
        )

    too_wide = [line for line in lines_of(output) if len(line) > 60 and not may_be_wider(line)]
    assert not too_wide, too_wide


def corpus_reports():
    matcher = default_matcher()
    for path in sorted(CORPUS.glob("*.log")):
        report = diagnose([str(path)], matcher)
        if report.top is not None:
            yield path.name, report


@pytest.mark.parametrize("width", [40, 72, 100])
def test_commands_are_never_broken_across_lines(width):
    """Verify's command, and every checklist item that reads as a command, is one line whatever the width; the
    words of the others are wrapped whole (no flag, path or word cut in two)."""
    checked = 0
    for name, report in corpus_reports():
        assert report.top is not None
        lines = render_text(report, width).splitlines()
        assert "    " + report.top.verify in lines, (name, report.top.verify)
        text_tokens = {token for line in lines for token in line.split()}
        for item in report.top.checklist:
            if _COMMAND_LINE.search(_QUOTED_COMMAND.sub("", item)):
                assert "    [ ] " + " ".join(item.split()) in lines, (name, item)
            else:
                assert set(_QUOTED_COMMAND.sub("", item).split()) <= text_tokens, (name, item)
                for quoted in _QUOTED_COMMAND.findall(item):
                    assert any(quoted in line for line in lines), (name, quoted)
            checked += 1
    assert checked > 50


def test_a_cut_log_line_ends_with_an_ellipsis(tmp_path):
    log = tmp_path / "train.log"
    long_tail = "x" * 400
    log.write_text(f"[rank2]: step 5 loss 1.0\n[rank2]: torch.OutOfMemoryError: CUDA out of memory. {long_tail}\n")
    out = run_denpex("diagnose", str(log)).stdout.decode()
    cut = [line for line in out.splitlines() if "CUDA out of memory. xxx" in line]
    assert cut and all(line.endswith("…") and len(line.strip()) <= 200 for line in cut), cut


# -- a terminal that shows ASCII only ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [EXAMPLE, ROOT / "README.md", CORPUS / "024_healthy.log"])
def test_an_ascii_terminal_gets_ascii_and_no_crash(path):
    env = {"PYTHONIOENCODING": "ascii", "PATH": "/usr/bin:/bin"}
    proc = subprocess.run(denpex_cmd() + ["diagnose", str(path)], capture_output=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    text = proc.stdout.decode("ascii")  # raises if anything but ASCII came out
    assert text.split()[0] in {"x", "o", "+"}, text[:200]
    as_json = subprocess.run(
        denpex_cmd() + ["diagnose", "--json", str(path)], capture_output=True, env=env, timeout=120
    )
    ascii_report = json.loads(as_json.stdout.decode("ascii"))
    utf8_report = json.loads(run_denpex("diagnose", "--json", str(path)).stdout)
    for report in (ascii_report, utf8_report):
        del report["stats"]["seconds"]
    assert ascii_report == utf8_report  # escaped (\\u2026), never replaced by "?"


# -- shorter at 3 a.m. ---------------------------------------------------------------------------------------------


def test_a_traceback_every_rank_printed_is_shown_once():
    out = run_denpex("diagnose", str(ALL_RANKS_ENOSPC)).stdout.decode()
    assert re.search(r"^    same\s+on ranks 1-3: line 206, line 317, line 428$", out, re.M), out
    assert out.count("OSError: [Errno 28] No space left on device") == 1
    assert out.count("with path.open(mode) as stream:") == 1
    for label in ("started", "related", "launcher"):  # the evidence says what each line is in words
        assert re.search(rf"^    {label}\s+rank \d, ", out, re.M), label


BRIEF = re.compile(r"^(\w+) rank=(\d+|-) host=(\S+) at=(\S+:\d+) signature=([\w.]+) severity=(\w+)$")


def test_brief_is_one_line_per_diagnosis(tmp_path):
    proc = run_denpex("diagnose", "--brief", str(EXAMPLE), str(ALL_RANKS_ENOSPC))
    report = json.loads(run_denpex("diagnose", "--json", str(EXAMPLE), str(ALL_RANKS_ENOSPC)).stdout)
    lines = proc.stdout.decode().splitlines()
    assert proc.returncode == 0 and len(lines) == len(report["diagnoses"]) >= 2
    for line, d in zip(lines, report["diagnoses"], strict=True):
        found = BRIEF.match(line)
        assert found, line
        rank = "-" if d["initiating_rank"] is None else str(d["initiating_rank"])
        where = f"{d['first_seen']['source']}:{d['first_seen']['line']}"
        assert found.groups() == (d["class"], rank, d["host"] or "-", where, d["signature"], d["severity"])
    unrecognised = tmp_path / "odd.log"
    unrecognised.write_text("[rank1]: step 1 loss 2.0\n[rank1]: fatal: the frobnicator jammed, aborting\n")
    assert run_denpex("diagnose", "--brief", str(unrecognised)).stdout.decode() == (
        f"unrecognised rank=1 at={unrecognised}:2\n"
    )
    assert run_denpex("diagnose", "--brief", str(CORPUS / "024_healthy.log")).stdout == b"healthy\n"
    assert run_denpex("diagnose", "--brief", "/etc/passwd").stdout == b"not_a_log\n"


@pytest.mark.parametrize(
    "line,summary",
    [
        (  # no " DUE TO ..." clause: "{time}{reason}" is the time, not "...unknown"
            "slurmstepd: error: *** JOB 19 ON vm CANCELLED AT 2026-12-02T10:20:53 ***",
            "Slurm stopped job 19 at 2026-12-02T10:20:53: the job was cancelled from outside",
        ),
        (  # a sacct row names no step: the parenthesis about events in a step goes whole
            "191.batch         batch OUT_OF_MEMORY    0:125                 63.95G",
            "Slurm's step daemon saw the kernel OOM killer act inside the job's memory cgroup: a process",
        ),
    ],
)
def test_a_field_the_line_did_not_give_goes_with_its_words(line, summary):
    report = diagnose_sources([source_from_bytes("job.log", (line + "\n").encode())])
    assert report.top is not None and report.top.summary.startswith(summary), report.top and report.top.summary


def test_no_field_is_left_unfilled_in_any_answer():
    """Over every signature's own match cases: no {field} left, no "unknown" glued to a value, and in commands a
    field not given is a placeholder to fill in (<job_id>), never a silent gap."""
    matcher = default_matcher()
    seen = 0
    for sig in matcher.library.signatures:
        for case in sig.cases:
            if case.kind != "match":
                continue
            report = diagnose_sources(case_sources(case, "case.log"), matcher)
            for d in report.diagnoses:
                for text in (d.summary, d.fix, d.verify, *d.checklist):
                    assert not PLACEHOLDER.search(text), (sig.id, text)
                    assert not re.search(r"[\w)]unknown\b", text), (sig.id, text)
                seen += 1
    assert seen > 500


# -- not a training log ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/etc/passwd", str(ROOT / "README.md")])
def test_a_text_that_is_no_log_is_said_to_be_none(path):
    for args in (["diagnose", path], ["diagnose", "--exit-code", path]):
        proc = run_denpex(*args)
        assert proc.returncode == 0, proc.stderr
        out = proc.stdout.decode()
        assert out.startswith("○ This does not look like a training log.") and "Healthy" not in out
    report = json.loads(run_denpex("diagnose", "--json", path).stdout)
    assert report["diagnoses"] == [] and report["not_a_log"]["lines"] == report["stats"]["lines"] > 10


def test_a_pasted_error_line_alone_is_still_a_log():
    line = b"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity\n"
    proc = run_denpex("diagnose", "--exit-code", "--json", "-", stdin=line)
    assert proc.returncode == 1 and "not_a_log" not in json.loads(proc.stdout)
    healthy = run_denpex("diagnose", "--brief", "-", stdin=b"step 1 loss 2.0\nstep 2 loss 1.9\n")
    assert healthy.stdout == b"healthy\n"


@pytest.mark.parametrize(
    "template,values,prose",
    [
        ("stopped job {job_id} at {time}{reason}: x", {"job_id": "19"}, "stopped job 19: x"),
        ("killed (pod {pod} where the listing names it): x", {}, "killed: x"),
        ("({oom_events} event(s) in step {step})", {"oom_events": "1", "step": "3.0"}, "(1 event(s) in step 3.0)"),
        (
            "failed to connect to {peer}: {reason}. Then",
            {"peer": "10.0.0.5:29500"},
            "failed to connect to 10.0.0.5:29500. Then",
        ),
        ("NCCL {nccl_version} reported an error on GPU {gpu}.", {}, "NCCL reported an error."),
        ("the filesystem holding {path} is full", {}, "the filesystem is full"),
        # a unit goes with its missing value: never "... ms timeout" or "after its timeout" with a lone "ms"
        (
            "gave up (sequence number {seq}) when its timeout ran out (after {ms} ms).",
            {"seq": "7"},
            "gave up (sequence number 7) when its timeout ran out.",
        ),
        ("waited {ms} ms for {peer}", {"ms": "900"}, "waited 900 ms"),
    ],
)
def test_fill_prose(template, values, prose):
    from signatures._template import fill_command, fill_prose

    assert fill_prose(template, values) == prose
    assert fill_command("sacct -j {job_id} | grep {state}", {"job_id": "19"}) == "sacct -j 19 | grep <state>"
