"""Loading the taxonomy and the signature library from TOML files."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from pydantic import ValidationError

from ._schema import Signature

PACKAGE_DIR = Path(__file__).resolve().parent
LIBRARY_DIR = PACKAGE_DIR / "library"
TAXONOMY_FILE = PACKAGE_DIR / "taxonomy.toml"


class SignatureFileError(ValueError):
    """A signature or taxonomy file is invalid. The message names the file and the reason."""


ACTIONS = ("restart", "drain_and_restart", "fix_and_restart", "none")


@dataclass(frozen=True)
class TaxonomyClass:
    key: str
    family: str
    meaning: str
    action: str = "fix_and_restart"  # restart | drain_and_restart | fix_and_restart | none: "can I just requeue?"
    action_reason: str = ""


@dataclass
class Library:
    signatures: list[Signature]
    taxonomy: dict[str, TaxonomyClass]
    paths: dict[str, Path] = field(default_factory=dict)

    def by_id(self) -> dict[str, Signature]:
        return {s.id: s for s in self.signatures}

    def get(self, sig_id: str) -> Signature:
        for sig in self.signatures:
            if sig.id == sig_id:
                return sig
        raise KeyError(sig_id)

    def subset(self, ids: set[str]) -> Library:
        return Library(
            [s for s in self.signatures if s.id in ids],
            self.taxonomy,
            {k: v for k, v in self.paths.items() if k in ids},
        )


def load_taxonomy(path: Path = TAXONOMY_FILE) -> dict[str, TaxonomyClass]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SignatureFileError(f"{path}: {exc}") from None
    classes = data.get("classes")
    if not isinstance(classes, dict) or not classes:
        raise SignatureFileError(f"{path}: no [classes.*] tables")
    out = {}
    for key, entry in classes.items():
        if not isinstance(entry, dict) or not {"family", "meaning"} <= entry.keys():
            raise SignatureFileError(f"{path}: class {key!r} needs 'family' and 'meaning'")
        if entry.get("action", "fix_and_restart") not in ACTIONS:
            raise SignatureFileError(f"{path}: class {key!r}: action must be one of {', '.join(ACTIONS)}")
        out[key] = TaxonomyClass(
            key,
            entry["family"],
            entry["meaning"],
            entry.get("action", "fix_and_restart"),
            entry.get("action_reason", ""),
        )
    return out


def load_signature(path: Path, taxonomy: dict[str, TaxonomyClass]) -> Signature:
    """Parse and validate one signature file; errors name the file and the reason."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SignatureFileError(f"{path}: cannot read: {exc.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SignatureFileError(f"{path}: not valid TOML: {exc}") from None
    try:
        sig = Signature.model_validate(data)
    except ValidationError as exc:
        reasons = "; ".join(f"{'.'.join(str(p) for p in err['loc']) or '(file)'}: {err['msg']}" for err in exc.errors())
        raise SignatureFileError(f"{path}: {reasons}") from None
    if path.stem != sig.id:
        raise SignatureFileError(f"{path}: id {sig.id!r} does not match the file name {path.stem!r}")
    if sig.cls not in taxonomy:
        raise SignatureFileError(f"{path}: class {sig.cls!r} is not in the taxonomy ({TAXONOMY_FILE.name})")
    return sig


def load_library(directory: Path | list[Path] = LIBRARY_DIR, taxonomy_path: Path = TAXONOMY_FILE) -> Library:
    """Load every signature under one or more directories as one library."""
    directories = directory if isinstance(directory, list) else [directory]
    taxonomy = load_taxonomy(taxonomy_path)
    signatures: list[Signature] = []
    paths: dict[str, Path] = {}
    files = sorted(p for d in directories for p in d.rglob("*.toml"))
    for path in files:
        sig = load_signature(path, taxonomy)
        if sig.id in paths:
            raise SignatureFileError(f"{path}: duplicate id {sig.id!r} (also in {paths[sig.id]})")
        paths[sig.id] = path
        signatures.append(sig)
    if not signatures:
        raise SignatureFileError(f"{', '.join(map(str, directories))}: no signature files found")
    known = set(paths)
    for sig in signatures:
        unknown = [r for r in sig.related if r not in known]
        if unknown:
            raise SignatureFileError(f"{paths[sig.id]}: related ids not in the library: {', '.join(unknown)}")
    return Library(signatures, taxonomy, paths)


@lru_cache(maxsize=1)
def default_library() -> Library:
    return load_library()
