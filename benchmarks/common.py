"""What every benchmark shares: battles simulated from known strengths, one timer, peak
memory, the load average, the stamp (date, commit, machine, load) and the JSON record.

numpy and arena are imported only where they are used: ``python -m benchmarks`` imports
this module before the benchmark, and the ratings benchmarks set ``OPENBLAS_NUM_THREADS``
before numpy loads.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from arena.ratings import Battles

ROOT = Path(__file__).resolve().parents[1]
#: The share of simulated battles that end in a tie.
TIE_PROB = 0.1
#: What ``Draw.winner`` indexes, in a Chatbot-Arena log's spelling.
WINNERS = ("model_a", "model_b", "tie")
#: The keys every JSON record's ``stamp`` carries.
STAMP_KEYS = ("date", "commit", "machine", "python", "load_before", "load_after")


@dataclass(frozen=True)
class Draw:
    """Battles drawn from known strengths: who met whom, who won, which were ties."""

    model_a: NDArray[np.int64]
    model_b: NDArray[np.int64]
    a_wins: NDArray[np.bool_]
    tie: NDArray[np.bool_]

    def outcome(self) -> NDArray[np.float64]:
        """1.0 when model A won, 0.0 when B won, 0.5 for a tie."""
        import numpy as np

        outcome = self.a_wins.astype(np.float64)
        outcome[self.tie] = 0.5
        return outcome

    def winner(self) -> NDArray[np.int64]:
        """0 when model A won, 1 when B won, 2 for a tie (an index into ``WINNERS``)."""
        import numpy as np

        winner = np.where(self.a_wins, 0, 1)
        winner[self.tie] = 2
        return winner


def draw_battles(rng: np.random.Generator, n: int, m: int, tie_prob: float = TIE_PROB) -> Draw:
    """``n`` battles among ``m`` models of normal(0, 1) log-strengths (Bradley-Terry odds),
    ``tie_prob`` of them ties; ``rng`` goes on to draw the query ids."""
    import numpy as np

    strengths = rng.normal(0.0, 1.0, m)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    p = 1.0 / (1.0 + np.exp(-(strengths[a] - strengths[b])))
    a_wins = rng.random(n) < p
    return Draw(a, b, a_wins, rng.random(n) < tie_prob)


def simulate_battles(n: int, m: int, n_queries: int, seed: int) -> Battles:
    """Seeded battles from normal(0, 1) log-strengths; every query id is used."""
    import numpy as np

    from arena.ratings import Battles

    rng = np.random.default_rng(seed)
    draw = draw_battles(rng, n, m)
    query = np.concatenate([np.arange(n_queries), rng.integers(0, n_queries, n - n_queries)])
    names = tuple(f"model{i:03d}" for i in range(m))
    return Battles(draw.model_a, draw.model_b, draw.outcome(), rng.permutation(query), names)


@dataclass
class Elapsed:
    """Wall and CPU seconds of a timed block (filled when the block ends)."""

    wall: float = 0.0
    cpu: float = 0.0


@contextmanager
def timer() -> Iterator[Elapsed]:
    """Time the ``with`` block: ``with timer() as t: ...`` then ``t.wall`` and ``t.cpu``."""
    elapsed = Elapsed()
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        yield elapsed
    finally:
        elapsed.wall = time.perf_counter() - wall
        elapsed.cpu = time.process_time() - cpu


def peak_rss_gib() -> float:
    """This process's peak resident set size (VmHWM) in GiB."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 2**20
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


def children_peak_gib() -> float:
    """The largest peak RSS among this process's waited-for children, GiB."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20


def load_average() -> float:
    """The machine's 1-minute load average."""
    return os.getloadavg()[0]


def machine_name() -> str:
    """This machine, as the stamps name it: architecture and core count."""
    return f"{platform.machine()}, {os.cpu_count()} cores"


def git_commit(root: Path = ROOT) -> str:
    """The checkout's short commit, with ``+dirty`` when its tracked files differ from it."""
    try:
        head = _git(root, "rev-parse", "--short=7", "HEAD")
        dirty = _git(root, "status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
    done.check_returncode()
    return done.stdout.strip()


@dataclass(frozen=True)
class Stamp:
    """Where a benchmark's figures come from: when, which code, which machine, how busy."""

    date: str
    commit: str
    machine: str
    python: str
    load_before: float
    load_after: float | None = None

    @classmethod
    def now(cls) -> Stamp:
        """This machine and checkout now; ``load_after`` is set by :meth:`ended`."""
        return cls(
            datetime.now(UTC).strftime("%Y-%m-%d"),
            git_commit(),
            machine_name(),
            platform.python_version(),
            round(load_average(), 2),
        )

    def ended(self) -> Stamp:
        """The same stamp with the load average at the end of the run."""
        return Stamp(**{**asdict(self), "load_after": round(load_average(), 2)})


@dataclass
class Record:
    """One benchmark run as JSON: its stamp, what it cost and what it printed."""

    benchmark: str
    argv: list[str]
    stamp: Stamp
    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0
    peak_rss_gib: float = 0.0
    output: str = ""
    figures: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        """The record as indented JSON."""
        return json.dumps(asdict(self), indent=2, default=str)


def write_json(record: Record, target: Path | None) -> None:
    """Print ``record`` (``target`` None) or write it to ``target``."""
    if target is None:
        sys.stdout.write(record.to_json() + "\n")
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(record.to_json() + "\n", encoding="utf-8")


def module_command(module: str, *args: str) -> list[str]:
    """The command running ``module`` (e.g. ``benchmarks.chat_server``) with this Python; run
    it with ``cwd=ROOT`` (or :func:`suite_only`) so the suite is importable."""
    return [sys.executable, "-m", module, *args]


@contextmanager
def suite_only() -> Iterator[Path]:
    """A folder holding only a link to this suite: the ``cwd`` of a child that must import
    ``arena`` from another checkout (given by ``PYTHONPATH``) and the suite from this one."""
    with tempfile.TemporaryDirectory(prefix="benchmarks-") as folder:
        (Path(folder) / "benchmarks").symlink_to(ROOT / "benchmarks", target_is_directory=True)
        yield Path(folder)


def build_set_main(
    doc: str | None, write: Callable[[Path, Path], int], set_name: str, argv: list[str] | None
) -> int:
    """The command of a script that builds a shipped human-preference set from a clone of its
    source repository (``--repo``) into ``data/human-preference/SET_NAME`` (``--out``)."""
    import argparse

    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=ROOT / "data" / "human-preference" / set_name)
    args = parser.parse_args(argv)
    print(f"{write(args.repo, args.out)} pairs written to {args.out}")
    return 0
