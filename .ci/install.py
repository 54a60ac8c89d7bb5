"""``pip install ARGS`` into this interpreter's environment, done by uv when it can.

uv resolves and installs the same packages from the same places about ten times faster. It
reads none of pip's configuration, so the settings pip has (``pip config list``: files and
``PIP_*`` variables) are handed to it as ``UV_*`` variables. A setting with no uv equivalent
here, a missing uv, or a failed uv install falls back to pip, which installs what uv left.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

# pip's setting -> uv's variable; lists are space separated in both.
SETTINGS = {
    "index-url": "UV_DEFAULT_INDEX",
    "extra-index-url": "UV_EXTRA_INDEX_URL",
    "find-links": "UV_FIND_LINKS",
    "constraint": "UV_CONSTRAINT",
    "cert": "SSL_CERT_FILE",
    "default-timeout": "UV_HTTP_TIMEOUT",
}
# pip's settings that change nothing uv does here.
IGNORED = {"disable-pip-version-check", "quiet", "progress-bar", "no-cache-dir"}


def _pip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pip", *args], capture_output=True, text=True)


def _settings() -> dict[str, str]:
    """pip's effective settings, by name: the later of a file's and a variable's wins."""
    found: dict[str, str] = {}
    for line in _pip("config", "list").stdout.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            found[key.rsplit(".", 1)[-1]] = value.strip().strip("'\"")
    return found


def _present(locations: str) -> str:
    """Drop the local folders that do not exist (pip skips them with a warning, uv fails)."""
    kept = []
    for place in locations.split():
        remote = "://" in place and not place.startswith("file://")
        if remote or Path(place.removeprefix("file://")).exists():
            kept.append(place)
    return " ".join(kept)


def uv_env() -> dict[str, str] | None:
    """The environment uv needs to install what pip would, or None when it cannot."""
    env = dict(os.environ)
    for key, value in _settings().items():
        if key in IGNORED:
            continue
        if key not in SETTINGS:
            print(f"pip's setting {key!r} has no uv equivalent here: installing with pip")
            return None
        if key in ("extra-index-url", "find-links"):
            value = _present(value)
        if value:
            env[SETTINGS[key]] = value
    env["UV_INDEX_STRATEGY"] = "unsafe-best-match"  # pip's rule: the best version of any index
    return env


def main(args: list[str]) -> int:
    uv = shutil.which("uv", path=str(Path(sys.executable).parent))
    env = uv_env() if uv else None
    if uv and env is not None:
        command = [uv, "pip", "install", "--quiet", "--compile-bytecode"]
        done = subprocess.run([*command, "--python", sys.executable, *args], env=env)
        if done.returncode == 0:
            return 0
        print("uv could not install it: installing with pip", file=sys.stderr)
    return subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", *args]).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
