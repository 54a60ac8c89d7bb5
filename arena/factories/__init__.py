"""A team's own agent factory: declaring it (:func:`agent_factory`), importing it from the
team's project, checking a variant's ``tools:`` and ``params:`` against it, and fingerprinting
its code so a changed agent is a new version."""

from arena.factories._declare import FactorySpec, agent_factory, factory_spec
from arena.factories._factories import call_factory, factory_params, import_factory, vet_variant
from arena.factories._fingerprint import (
    package_files,
    package_targets,
    text_digest,
    tool_digests,
)
from arena.factories._imports import add_project_root, make_importable, project_roots

__all__ = [
    "FactorySpec",
    "add_project_root",
    "agent_factory",
    "call_factory",
    "factory_params",
    "factory_spec",
    "import_factory",
    "make_importable",
    "package_files",
    "package_targets",
    "project_roots",
    "text_digest",
    "tool_digests",
    "vet_variant",
]
