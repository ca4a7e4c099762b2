"""Refinements: an event named more precisely from its whole traceback (signatures `refines`)."""

from helpers import run

from signatures import Library
from signatures._lint import lint_library
from signatures._schema import Signature

FRAMES = [f'[rank1]:   File "/work/lib/step{i}.py", line {i}, in step{i}\n[rank1]:     step{i + 1}()' for i in range(8)]


def test_an_exception_raised_deep_under_the_dataset_is_a_data_error(matcher):
    """The dataset frame is 8 frames above the exception: outside what the evidence shows, inside the frames."""
    log = "\n".join(
        [
            "[rank1]: Traceback (most recent call last):",
            '[rank1]:   File "/venv/lib/python3.11/site-packages/torch/utils/data/_utils/fetch.py", line 54, in fetch',
            "[rank1]:     data = [self.dataset[idx] for idx in possibly_batched_index]",
            '[rank1]:   File "/work/train.py", line 30, in __getitem__',
            "[rank1]:     step0()",
            *FRAMES,
            "[rank1]: ValueError: invalid literal for int() with base 10: 'n/a'",
        ]
    )
    d = run(matcher, ("train.log", log)).top
    assert d is not None
    assert (d.signature, d.class_, d.initiating_rank) == ("data.input_pipeline_exception", "tokenizer_or_data_error", 1)


def test_the_same_exception_in_the_model_stays_what_it_was(matcher):
    log = "\n".join(
        [
            "[rank1]: Traceback (most recent call last):",
            *FRAMES,
            "[rank1]: ValueError: invalid literal for int() with base 10: 'n/a'",
        ]
    )
    top = run(matcher, ("train.log", log)).top
    assert top is not None and top.signature == "python.uncaught_exception"


def test_a_refinement_of_a_signature_not_in_the_library_is_a_lint_problem(library):
    sig = library.by_id()["data.input_pipeline_exception"]
    broken = Signature.model_validate(
        {**sig.model_dump(by_alias=True), "refines": {"signature": "no.such_signature", "context": "x"}}
    )
    lib = Library([broken if s.id == sig.id else s for s in library.signatures], library.taxonomy)
    assert any("no.such_signature" in p for p in lint_library(lib))
