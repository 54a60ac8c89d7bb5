"""Which variant ``--candidate`` / ``--baseline`` mean: a YAML path, or a variant's ``name:``
in the variants folder (``run.variants_dir``, default ``data/variants``).

A name is looked up by the ``name:`` field of each YAML file there (subfolders too), so a
file ``trip_v2.yaml`` holding ``name: trip-v2`` is ``trip-v2``; the file's stem is the
fallback when no file declares that name. Two files declaring one name are refused.
"""

from __future__ import annotations

from pathlib import Path

from arena.errors import InputError
from arena.project._config import GateConfig
from arena.variants.variant import MAX_VARIANT_BYTES, Variant

SUFFIXES = (".yaml", ".yml")


def variants_dir(config: GateConfig) -> Path:
    """Where variant names are looked up."""
    from arena.paths import data_dir

    given = config.run.variants_dir
    return Path(config.path(given)) if given else data_dir() / "variants"


def _declared_name(file: Path) -> str | None:
    """The file's ``name:``, or None when it is unreadable or has none (never raises)."""
    from arena.inputs.files import load_yaml

    try:
        raw = load_yaml(file, limit=MAX_VARIANT_BYTES)
    except (InputError, OSError):
        return None
    name = raw.get("name") if isinstance(raw, dict) else None
    return name if isinstance(name, str) else None


def _files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.suffix in SUFFIXES and p.is_file())


def named_variants(folder: Path) -> dict[str, list[Path]]:
    """Each declared variant name in ``folder`` -> the files declaring it."""
    found: dict[str, list[Path]] = {}
    for file in _files(folder):
        name = _declared_name(file)
        if name is not None:
            found.setdefault(name, []).append(file)
    return found


def find_variant_file(ref: str, config: GateConfig, flag: str) -> Path | None:
    """The file of the variant named ``ref`` (by ``name:``, else by file stem), or None."""
    folder = variants_dir(config)
    files = named_variants(folder).get(ref, [])
    if len(files) > 1:
        raise InputError(
            f"variant name {ref!r} is declared by {len(files)} files: "
            f"{', '.join(map(str, files))}; rename one or give a file path",
            field=flag,
        )
    if files:
        return files[0]
    stem = next((folder / f"{ref}{s}" for s in SUFFIXES if (folder / f"{ref}{s}").is_file()), None)
    return stem


def variant_path(ref: str, config: GateConfig, flag: str) -> Path:
    """The file of a variant given as a YAML path, or by its name in the variants folder
    (InputError naming ``flag`` when no file there declares it)."""
    path = Path(ref)
    if path.suffix in SUFFIXES or path.is_file():
        return path
    file = find_variant_file(ref, config, flag)
    if file is None:
        folder = variants_dir(config)
        names = sorted(named_variants(folder))
        there = f"variants there: {', '.join(names)}" if names else "it holds no variant"
        raise InputError(f"no variant {ref!r} in {folder} ({there})", field=flag)
    return file


def resolve_variant(ref: str, config: GateConfig, flag: str) -> Variant:
    """A variant from a YAML path, or by its name in the variants folder."""
    from arena.variants.variant import load_variant

    return load_variant(variant_path(ref, config, flag))


def resolve_variants(refs: list[str], folder: str | None, flag: str) -> list[Variant]:
    """Variants from YAML paths or names in ``folder`` (default: the shipped variants), as
    :func:`~arena.variants.variant.load_variants` (names unique)."""
    from arena.project._config import RunSection
    from arena.variants.variant import load_variants

    config = GateConfig(run=RunSection(variants_dir=folder))
    return load_variants([variant_path(ref, config, flag) for ref in refs])
