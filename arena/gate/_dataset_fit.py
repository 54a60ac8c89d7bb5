"""Gate settings that name categories the dataset must have: refused before anything runs.

``arena gate`` and ``arena check`` both call :func:`check_categories` once they know the
dataset (the one the gate runs; the one the checked run ran), so a category limit or rule that
can never hold is bad input (exit 2 naming the flag, or the ``arena.yaml`` and its field),
never a failed limit (exit 1) or a rule that silently never fires.
"""

from __future__ import annotations

from arena.errors import InputError
from arena.golden import GoldenDataset
from arena.golden._models import Category
from arena.project._config import GateConfig

HAPPY_PATH_RULE = "happy_path_fail"


def check_categories(config: GateConfig, dataset: GoldenDataset) -> None:
    """InputError unless every category a limit names (``absolute.min_category_pass_rate``)
    is one of the dataset's, and unless the dataset has happy-path cases to block on when
    ``rules.block`` is given with ``happy_path_fail`` in it."""
    names = dataset.category_names
    unknown = sorted(set(config.absolute.min_category_pass_rate) - set(names))
    if unknown:
        file, field = config.origin("absolute.min_category_pass_rate")
        raise InputError(
            f"unknown category(ies) {', '.join(unknown)}; the dataset {dataset.name} has "
            f"{', '.join(names)}",
            file=file,
            field=field,
        )
    explicit = "block" in config.rules.model_fields_set
    if explicit and HAPPY_PATH_RULE in config.rules.block and Category.HAPPY_PATH not in names:
        file, field = config.origin("rules.block")
        raise InputError(
            f"{HAPPY_PATH_RULE} blocks on {Category.HAPPY_PATH.value} cases, but the dataset "
            f"{dataset.name} has no such category ({', '.join(names)}): leave the rule out",
            file=file,
            field=field,
        )
