"""A bad signature file is rejected with its path and the reason."""

import pytest
from conftest import RULES_LIBRARY

from signatures import SignatureFileError, load_library
from signatures._library import load_signature, load_taxonomy

GOOD = (RULES_LIBRARY / "test.specific.toml").read_text()


@pytest.mark.parametrize(
    "mutate,reason",
    [
        (lambda s: s.replace('class = "checkpoint_disk_full"', 'class = "made_up"'), "not in the taxonomy"),
        (lambda s: s.replace('role = "root"', 'role = "cause"'), "role"),
        (lambda s: s.replace('literal = "disk is full"', 'literal = "dis"'), "shorter than 4"),
        (lambda s: s.replace("regex = '''disk is full'''", "regex = '''(?<=disk) is full'''"), "not valid RE2"),
        (lambda s: s.replace("regex = '''disk is full'''", "regex = '''(disk) \\1'''"), "not valid RE2"),
        (
            lambda s: s.replace(
                'references = ["https://example.org/denpex-test-fixture"]', 'references = ["see the wiki"]'
            ),
            "not an http",
        ),
        (lambda s: s.replace('checklist = ["one", "two", "three"]', 'checklist = ["one"]'), "checklist"),
        (lambda s: s.replace('kind = "near_miss"', 'kind = "match"'), "near_miss"),
        (lambda s: s.replace('severity = "high"', 'severity = "high"\nsevrity = "low"'), "sevrity"),
        (lambda s: s + "\n[[patterns]\n", "not valid TOML"),
    ],
)
def test_bad_signature_files(tmp_path, mutate, reason):
    path = tmp_path / "test.specific.toml"
    path.write_text(mutate(GOOD))
    with pytest.raises(SignatureFileError) as err:
        load_signature(path, load_taxonomy())
    assert str(path) in str(err.value)
    assert reason in str(err.value)


def test_file_name_must_equal_id(tmp_path):
    path = tmp_path / "other.name.toml"
    path.write_text(GOOD)
    with pytest.raises(SignatureFileError, match="does not match the file name"):
        load_signature(path, load_taxonomy())


def test_duplicate_ids_and_unknown_related(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "test.specific.toml").write_text(GOOD)
    (tmp_path / "b" / "test.specific.toml").write_text(GOOD)
    with pytest.raises(SignatureFileError, match="duplicate id"):
        load_library(tmp_path)
    (tmp_path / "b" / "test.specific.toml").unlink()
    (tmp_path / "a" / "test.specific.toml").write_text(
        GOOD.replace("priority = 80", 'priority = 80\nrelated = ["no.such"]')
    )
    with pytest.raises(SignatureFileError, match="no.such"):
        load_library(tmp_path)


def test_taxonomy_has_the_issue_classes():
    tax = load_taxonomy()
    assert len(tax) == 42
    for key in [
        "cuda_oom",
        "host_oom_killed",
        "nccl_timeout",
        "checkpoint_writer_hang",
        "checkpoint_write_timeout",
        "gpu_xid_hardware",
        "python_exception_other",
        "native_crash",
        "healthy",
    ]:
        assert key in tax
