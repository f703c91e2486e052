"""`play`, `reroll` and `fill` with odd `--setting`s, in real processes: values are named as
they were typed (true, an empty value, 1e999), a name given twice is refused rather than
the last one silently winning, a name in another case is told its name; nothing is
generated or queued for a refused command."""

from __future__ import annotations

import json
import subprocess

import pytest

from .test_takes_qa4_partial_setting_keeps_the_others import LINE, QUICK, _kamishibai


@pytest.fixture(scope="module")
def story(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A project with one generated turn: (its folder, the turn's id)."""
    folder = tmp_path_factory.mktemp("odd") / "story"
    assert _kamishibai("new", str(folder)).returncode == 0
    played = _kamishibai("play", f"{folder}.kamishibai", "-i", LINE, *QUICK, "--json")
    assert played.returncode == 0, played.stderr
    return f"{folder}.kamishibai", json.loads(played.stdout)["node"]


def _refused(done: subprocess.CompletedProcess[str], *words: str) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    for word in words:
        assert word in done.stderr, done.stderr
    for python in ("True", "None", " inf", "'true'", "''"):  # as Python writes them
        assert python not in done.stderr, done.stderr
    return done.stderr


def _counts(folder: str) -> tuple[int, int]:
    """(turns, takes) of the project."""
    shown = _kamishibai("tree", folder, "--json")
    nodes = json.loads(shown.stdout)["nodes"]
    return len(nodes), sum(len(node["takes"]) for node in nodes)


@pytest.mark.parametrize(("setting", "words"), [
    ("camera=true", ("got true.",)),
    ("frames=", ("must be a whole number, got an empty value.",)),
    ("frames=null", ("got an empty value.",)),
    ("fps=1e999", ("must be a number, got 1e999.",)),
    ("camera=[1, 2]", ("got [1, 2].",)),
    ("preset=true", ("preset must be a preset's name, got true.", "studio, draft")),
    ("Frames=3", ("no setting 'Frames': its name is 'frames'",)),
])
def test_odd_values_are_refused_as_typed_by_play_reroll_and_fill(story: tuple[str, str], setting: str,
                                                                  words: tuple[str, ...]) -> None:
    folder, node = story
    before = _counts(folder)
    _refused(_kamishibai("play", folder, "-i", LINE, "--setting", setting), *words)
    _refused(_kamishibai("reroll", folder, node, "--setting", setting), *words)
    _refused(_kamishibai("fill", folder, "--setting", setting), *words)
    assert _counts(folder) == before


@pytest.mark.parametrize("command", ["play", "reroll", "fill"])
def test_a_setting_given_twice_is_refused(story: tuple[str, str], command: str) -> None:
    folder, node = story
    before = _counts(folder)
    where = {"play": ("-i", LINE), "reroll": (node,), "fill": ()}[command]
    stderr = _refused(_kamishibai(command, folder, *where, "--setting", "frames=2", "--setting", " frames=3"))
    assert "--setting frames is given twice (2 and 3)" in stderr
    assert _counts(folder) == before
    queued = _kamishibai("queue", folder, "--json")
    assert json.loads(queued.stdout) == []
