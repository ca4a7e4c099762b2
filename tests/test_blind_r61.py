"""What runs_r61 (48 real CPU runs, scored once on 418114e by an evaluator who did not see the attribution code)
revealed, with a variant that must not change."""

from __future__ import annotations

from pathlib import Path

from helpers import top, top_of_text

from signatures import diagnose

RUNS = Path(__file__).resolve().parent / "corpus" / "blind_r61" / "runs"


def test_a_compiled_extension_that_is_not_a_shared_object_is_a_dependency_problem(matcher):
    # 033: torchrun --log-dir --tee 3; rank 1 imports an extension whose .so has an invalid ELF header
    run = RUNS / "033"
    report = diagnose([str(run / "console.log"), str(run / "logs")], matcher)
    assert top(report) == ("python.shared_object_unloadable", "dependency_abi_mismatch", 1)
    # an ImportError for a module that is simply absent is still the missing module's
    missing = "[default1]:ModuleNotFoundError: No module named 'fused_adam_cuda'\n"
    assert top_of_text(matcher, missing)[0] != "python.shared_object_unloadable"
