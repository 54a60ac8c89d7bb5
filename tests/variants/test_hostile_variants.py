"""Hostile variant files: prompt files confined to the variant's folder tree (the data root),
YAML bombs refused quickly, unreadable files named; every failure an InputError."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arena.errors import InputError
from arena.inputs.files import MAX_YAML_NODES, parse_yaml
from arena.paths import data_dir
from arena.variants.variant import PROMPT_ROOTS_ENV, load_variant

pytestmark = pytest.mark.unit

HEAD = "name: v\nmodel: {spec: 'fake:echo'}\n"

# 370 bytes, 10 ** 7 nodes once every alias is copied out (a "billion laughs" bomb).
BOMB = (
    "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    + "".join(
        f"{n}: &{n} [{', '.join([f'*{p}'] * 10)}]\n"
        for p, n in zip("abcdef", "bcdefg", strict=True)
    )
    + "name: v\nmodel: {spec: 'fake:echo', extra: {x: *g}}\n"
)


def _variant(tmp_path: Path, text: str, name: str = "v.yaml") -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _refused(path: Path, *words: str) -> str:
    with pytest.raises(InputError) as info:
        load_variant(path)
    text = str(info.value)
    assert f"file {path}" in text, text
    for word in words:
        assert word in text, text
    return text


# --- system_prompt_file stays inside the variant's folder tree --------------------------------


@pytest.mark.parametrize(
    "target",
    [
        "../../../../../../../../etc/passwd",
        "/etc/passwd",
        "../outside.md",
        "sub/../../outside.md",
        "../" * 30 + "root/.bashrc",
        "/proc/self/environ",
    ],
)
def test_prompt_files_outside_are_refused(tmp_path: Path, target: str) -> None:
    (tmp_path / "outside.md").write_text("SECRET")
    path = _variant(tmp_path / "variants", f"{HEAD}system_prompt_file: '{target}'\n")
    _refused(path, "field system_prompt_file", "outside the allowed folders", PROMPT_ROOTS_ENV)


def test_a_symbolic_link_out_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("SECRET")
    folder = tmp_path / "variants"
    folder.mkdir()
    (folder / "prompt.md").symlink_to(tmp_path / "secret.txt")
    _refused(_variant(folder, f"{HEAD}system_prompt_file: prompt.md\n"), "outside")


def test_prompts_beside_and_below_the_variant_load(tmp_path: Path) -> None:
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "p.md").write_text("Be brief.\n")
    (tmp_path / "p.md").write_text("Be kind.")
    below = load_variant(_variant(tmp_path, f"{HEAD}system_prompt_file: prompts/p.md\n"))
    beside = load_variant(_variant(tmp_path, f"{HEAD}system_prompt_file: ./p.md\n", "w.yaml"))
    assert (below.system_prompt, beside.system_prompt) == ("Be brief.", "Be kind.")


def test_the_data_root_is_one_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Shipped variants use ../prompts/: inside the data root that is allowed."""
    monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "data" / "prompts").mkdir(parents=True)
    (tmp_path / "data" / "prompts" / "p.md").write_text("Shared prompt.")
    path = _variant(tmp_path / "data" / "variants", f"{HEAD}system_prompt_file: ../prompts/p.md\n")
    assert load_variant(path).system_prompt == "Shared prompt."
    monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path / "elsewhere"))
    _refused(path, "outside the allowed folders")


def test_the_shipped_variants_still_load() -> None:
    for path in sorted((data_dir() / "variants").glob("*.yaml")):
        assert load_variant(path).source_file == str(path)


def test_the_opt_out_names_extra_roots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "p.md").write_text("From the shared folder.")
    path = _variant(tmp_path / "variants", f"{HEAD}system_prompt_file: ../shared/p.md\n")
    _refused(path, "outside the allowed folders")
    roots = os.pathsep.join(["/nonexistent", str(tmp_path / "shared")])
    monkeypatch.setenv(PROMPT_ROOTS_ENV, roots)
    assert load_variant(path).system_prompt == "From the shared folder."


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        ("latin1", ("not UTF-8",)),
        ("folder", ("not a regular file",)),
        ("fifo", ("not a regular file",)),
        ("huge", ("too large",)),
        ("missing", ("not found",)),
    ],
)
def test_unreadable_prompt_files(tmp_path: Path, setup: str, words: tuple[str, ...]) -> None:
    target = tmp_path / "prompt.md"
    if setup == "latin1":
        target.write_bytes("Réponds en français".encode("latin-1"))
    elif setup == "folder":
        target.mkdir()
    elif setup == "fifo":
        os.mkfifo(target)  # reading it would block forever
    elif setup == "huge":
        target.write_bytes(b"x" * 1_000_001)
    path = _variant(tmp_path, f"{HEAD}system_prompt_file: prompt.md\n")
    _refused(path, "field system_prompt_file", *words)


@pytest.mark.parametrize("value", ["''", "[a, b]", "{x: 1}", "42", "'a\\0b'"])
def test_prompt_file_values_must_be_paths(tmp_path: Path, value: str) -> None:
    _refused(_variant(tmp_path, f"{HEAD}system_prompt_file: {value}\n"), "system_prompt_file")


# --- the variant file itself ---------------------------------------------------------------------


def test_an_alias_bomb_is_refused_by_its_node_count(tmp_path: Path) -> None:
    """Refused by counting nodes, before any alias is copied out (how long it takes:
    ``python -m benchmarks bounded_work``)."""
    assert len(BOMB.encode()) < 500
    _refused(_variant(tmp_path, BOMB), f"more than {MAX_YAML_NODES} nodes")


def test_small_aliases_and_merge_keys_still_work(tmp_path: Path) -> None:
    text = (
        "base: &m {spec: 'fake:echo', temperature: 0.5}\nname: v\nmodel: {<<: *m, max_tokens: 99}\n"
    )
    with pytest.raises(InputError, match="base"):  # only the unknown field is refused
        load_variant(_variant(tmp_path, text))
    text = "name: &n v\ndescription: *n\nmodel: &m {spec: 'fake:echo'}\n"
    variant = load_variant(_variant(tmp_path, text))
    assert variant.description == "v"


#: Hostile YAML texts and the refusal each gets (benchmarks/bounded_work.py times them).
HOSTILE_YAML = [
    ("a: &a [*a]\n", "refers to itself"),
    ("[" * 150 + "]" * 150, "nested too deeply"),
    ("a:\n" + "".join("  " * i + "- \n" for i in range(1, 150)), "nested too deeply"),
    ("[" * 5000 + "]" * 5000, "malformed YAML"),
    ("name: [unclosed\n", "malformed YAML"),
    ("!!python/object/apply:os.system ['id']\n", "malformed YAML"),
    ("\x00", "malformed YAML"),
]


@pytest.mark.parametrize(("text", "message"), HOSTILE_YAML)
def test_hostile_yaml_text(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_yaml(text, file="x.yaml")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("name: café\n".encode("latin-1"), "not UTF-8"),
        (b"\xff\xfe\x00n\x00a", "not UTF-8"),
        (b"x: " + b"y" * 1_000_001, "too large"),
        (b"- just\n- a list\n", "expected a mapping"),
        (b"", "expected a mapping"),
    ],
)
def test_unreadable_variant_files(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "v.yaml"
    path.write_bytes(content)
    _refused(path, message)


def test_a_folder_given_as_the_variant(tmp_path: Path) -> None:
    _refused(tmp_path, "is a folder, not a file")


def test_cli_run_exits_2_without_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.cli import main

    (tmp_path / "secret.txt").write_text("SECRET")
    bad = [
        _variant(tmp_path / "a", BOMB),
        _variant(tmp_path / "b", f"{HEAD}system_prompt_file: ../secret.txt\n"),
        _variant(tmp_path / "c", "name: v\nagent: 'os:system'\nmodel: {spec: 'fake:echo'}\n"),
    ]
    (tmp_path / "latin.yaml").write_bytes("name: café\n".encode("latin-1"))
    db = tmp_path / "arena.db"
    for variant in [*bad, tmp_path / "latin.yaml", tmp_path / "a"]:
        code = main(["run", "--variants", str(variant), "--db", f"sqlite:///{db}"])
        err = capsys.readouterr().err
        assert code == 2 and str(variant) in err and "Traceback" not in err, err
        assert "SECRET" not in err
