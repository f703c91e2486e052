"""Every command's ``--help`` says what it does, in the words of what it really does.

``narrate``, ``open``, ``bench``, ``checkpoints`` and ``checkpoints plan`` had no description;
``open --help`` did not say that a new path is made a project; ``bench --help`` named no
benchmark; ``fill --help`` said its --engine and --setting apply to "the take it re-rolls",
and never said what fill does.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest
from test_cli_help_texts import _subparsers  # tests/ is on sys.path

from studio.benchmarks import available_benchmarks, find_bench_dir
from studio.cli import build_parser, main
from studio.storage import Project


def _commands() -> dict[str, argparse.ArgumentParser]:
    return _subparsers(build_parser())


def _help(parser: argparse.ArgumentParser, dest: str) -> str:
    return " ".join(next(a for a in parser._actions if a.dest == dest).help.split())  # type: ignore[union-attr]


def test_every_command_has_a_description() -> None:
    missing = [name for name, parser in _commands().items() if not (parser.description or "").strip()]
    assert not missing, missing


def test_bench_lists_the_benchmarks_it_can_run() -> None:
    names = list(available_benchmarks(find_bench_dir()))
    assert "sketch" in names and "export" in names
    bench = _commands()["bench"]
    assert ", ".join(names) in " ".join((bench.description or "").split())
    assert ", ".join(names) in _help(bench, "names")


def test_open_says_a_new_path_is_created(tmp_path: Path) -> None:
    opened = _commands()["open"]
    assert "created" in (opened.description or "") and "created" in _help(opened, "path")


def test_fill_speaks_of_turns_without_a_take() -> None:
    fill = _commands()["fill"]
    for dest in ("engine", "setting"):
        assert "re-rolls" not in _help(fill, dest) and "continues" not in _help(fill, dest), dest
        assert "every turn queued" in _help(fill, dest)
    assert (fill.description or "").startswith("Make the takes a story lacks")


def test_import_demo_generate_honours_setting_and_threads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from studio import worker

    made_with: list[int | None] = []
    real_init = worker.GenerationService.__init__

    def recording_init(self: worker.GenerationService, *args: Any, **kwargs: Any) -> None:
        made_with.append(kwargs["device"].threads)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(worker.GenerationService, "__init__", recording_init)
    project = tmp_path / "story.kamishibai"
    assert main(["import-demo", str(_demo(tmp_path)), "--project", str(project), "--generate", "--quiet",
                 "--setting", "frames=5", "--threads", "1"]) == 0, capsys.readouterr()
    assert made_with == [1]
    with Project.open(project, read_only=True) as opened:
        (take,) = opened.tree.takes.values()
    assert take.settings["frames"] == 5, take.settings


def test_import_demo_generate_looks_for_weights_in_checkpoints(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "weights"
    (empty / "mini").mkdir(parents=True)  # its own mini/, empty: without one the app's mini weights are used
    project = tmp_path / "story.kamishibai"
    assert main(["new", str(project)]) == 0
    assert main(["import-demo", str(_demo(tmp_path)), "--project", str(project), "--generate", "--engine", "mini",
                 "--checkpoints", str(empty)]) == 2
    assert str(empty / "mini") in capsys.readouterr().err
    with Project.open(project, read_only=True) as opened:
        assert len(opened.tree.nodes) == 1, "nothing is imported when the engine can't run"


@pytest.mark.parametrize("option", [("--threads", "1"), ("--setting", "frames=5"), ("--checkpoints", ".")])
def test_generate_options_without_generate_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       option: tuple[str, str]) -> None:
    assert main(["import-demo", str(_demo(tmp_path)), "--project", str(tmp_path / "s.kamishibai"), *option]) == 2
    assert f"{option[0]} only applies with --generate" in capsys.readouterr().err


def _demo(folder: Path) -> Path:
    demo = folder / "demo.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: day town.\n", encoding="utf-8")
    return demo
