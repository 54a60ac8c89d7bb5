"""The gate tests' scripted project (a golden set, variants on scripted models, a judge)."""

from tests.gate.conftest import project

__all__ = ["project"]
