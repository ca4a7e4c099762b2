"""The `denpex` command as a user runs it."""

import json

from conftest import CORPUS, RULES_LIBRARY, run_denpex

CONTRACT_DIAGNOSIS_KEYS = {
    "signature",
    "class",
    "title",
    "severity",
    "role",
    "initiating_rank",
    "host",
    "first_seen",
    "evidence",
    "values",
    "collateral",
    "fix",
    "checklist",
    "verify",
}


def test_json_report_keeps_the_contract():
    proc = run_denpex("diagnose", "--json", str(CORPUS / "004_nccl_remote_peer_exited.log"))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert set(report) >= {"diagnoses", "unrecognised", "stats"}
    d = report["diagnoses"][0]
    assert CONTRACT_DIAGNOSIS_KEYS <= set(d)
    assert set(d["first_seen"]) >= {"source", "line", "time", "text"}
    for ev in d["evidence"]:
        assert set(ev) >= {"source", "line", "rank", "text"}
    for c in d["collateral"]:
        assert set(c) >= {"signature", "class", "ranks"}
    assert set(report["stats"]) >= {"bytes", "lines", "ranks", "seconds"}
    assert report["stats"]["lines"] == 100
    assert isinstance(d["checklist"], list) and d["checklist"]


def test_healthy_json_has_no_diagnoses():
    proc = run_denpex("diagnose", "--json", str(CORPUS / "024_healthy.log"))
    report = json.loads(proc.stdout)
    assert report["diagnoses"] == [] and report["unrecognised"] == []


def test_text_report_has_every_part(tmp_path):
    log = tmp_path / "job.log"
    log.write_text(
        "[rank0]: step 1 loss 0.5\n[rank0]: Traceback (most recent call last):\n"
        '[rank0]:   File "t.py", line 3, in <module>\n[rank0]: BoomError: it broke\n'
        "[rank1]: collective timed out after 900 ms\n"
    )
    proc = run_denpex("diagnose", "--library", str(RULES_LIBRARY), str(log))
    out = proc.stdout.decode()
    assert proc.returncode == 0
    for part in [
        "Fixture test.boom",
        "[high]",
        "The fixture exception fired: it broke.",
        "Started: rank 0",
        f"{log}:4",
        "Evidence:",
        'File "t.py", line 3',
        "Knock-on failures",
        "1 rank (1)",
        "Fix:",
        "Confirm:",
        "[ ] one",
        "  Verify:\n    grep -n test <log>\n",  # a command on a line of its own, whole
    ]:
        assert part in out, part
    assert out.index("Fix:") < out.index("Evidence:") < out.index("Confirm:")  # the fix before the long evidence


def test_unrecognised_text(tmp_path):
    log = tmp_path / "job.log"
    log.write_text("[rank2]: Traceback (most recent call last):\n[rank2]: ZeroDivisionError: division by zero\n")
    out = run_denpex("diagnose", "--library", str(RULES_LIBRARY), str(log)).stdout.decode()
    assert "Unrecognised failure" in out and "ZeroDivisionError" in out and "[rank 2]" in out


def test_signatures_list_show_test_lint():
    listing = run_denpex("signatures", "list")
    assert listing.returncode == 0
    assert "python.uncaught_exception" in listing.stdout.decode()
    show = run_denpex("signatures", "show", "gloo.connection_closed_by_peer")
    assert show.returncode == 0 and "Connection closed by peer" in show.stdout.decode()
    assert run_denpex("signatures", "show", "no.such").returncode == 2
    test = run_denpex("signatures", "test")
    assert test.returncode == 0, test.stdout.decode()[-2000:]
    assert " 0 failed" in test.stdout.decode()
    lint = run_denpex("signatures", "lint")
    assert lint.returncode == 0, lint.stdout.decode()[-2000:]


def test_signatures_test_fails_on_a_broken_case(tmp_path):
    src = (RULES_LIBRARY / "test.specific.toml").read_text()
    (tmp_path / "test.specific.toml").write_text(
        src.replace("disk is full\n'''\n\n[[cases]]", "disk is fine\n'''\n\n[[cases]]", 1)
    )
    proc = run_denpex("signatures", "--library", str(tmp_path), "test")
    assert proc.returncode == 1
    assert "FAIL  test.specific case 0 (match): did not fire" in proc.stdout.decode()


def test_invalid_library_names_file_and_reason(tmp_path):
    (tmp_path / "bad.sig.toml").write_text('id = "bad.sig"\ntitle = "x"\n')
    proc = run_denpex("signatures", "--library", str(tmp_path), "list")
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert "bad.sig.toml" in err and "title" in err and "class" in err


def test_job_without_cluster_config_is_explained():
    proc = run_denpex("diagnose", "--job", "812345")
    assert proc.returncode == 2
    assert "clusters" in proc.stderr.decode()
