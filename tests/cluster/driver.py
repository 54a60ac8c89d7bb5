"""A Ray driver for the equivalence test: run, judge, then both again, on one executor (one
Ray job, so the workers start once). Prints one JSON document.

    python -m tests.cluster.driver ADDRESS DB DATASET JUDGE VARIANT...
"""

from __future__ import annotations

import json
import sys
from typing import Any


def main(argv: list[str]) -> dict[str, Any]:
    """Run and judge twice with ``--executor ray``; the documents ``arena run --json`` and
    ``arena judge --json`` would print (battles only), per pass."""
    from arena.battles import judge_run
    from arena.cli.run import run_json
    from arena.executors import RayExecutor
    from arena.golden import load_dataset
    from arena.runner import RunOptions, run_suite
    from arena.storage import Store
    from arena.variants.variant import load_variants
    from judges import parse_judge

    address, db, dataset_path, judge_file, *variant_files = argv
    store = Store(db)
    dataset, variants = load_dataset(dataset_path), load_variants(variant_files)
    spec = parse_judge(judge_file)
    executor = RayExecutor(address, endpoint_concurrency=4)
    passes = []
    try:
        for _ in range(2):
            options = RunOptions(concurrency=4, progress=False, executor=executor)
            ran = run_json(run_suite(store, dataset, variants, options))
            judged = judge_run(
                store, ran["run_id"], spec, concurrency=4, progress=False, executor=executor
            )
            passes.append(
                {
                    "run": ran,
                    "judge": {
                        "model_calls": judged.model_calls,
                        "battles": [b.model_dump(mode="json") for b in judged.battles],
                    },
                }
            )
    finally:
        executor.close()
    return {"passes": passes}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
