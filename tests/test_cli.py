"""The command line, run as a real process: output, exit codes, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120)


def test_version() -> None:
    result = kamishibai("--version")
    assert result.returncode == 0
    assert result.stdout.startswith("kamishibai ")


def test_new_import_tree_info(tmp_path: Path, demo_file: Path) -> None:
    created = kamishibai("new", str(tmp_path / "story"))
    assert created.returncode == 0, created.stderr
    path = tmp_path / "story.kamishibai"
    assert created.stdout.strip() == str(path)
    imported = kamishibai("import-demo", str(demo_file), "--project", str(path))
    assert imported.returncode == 0, imported.stderr
    assert "imported 8 turns" in imported.stdout
    tree = json.loads(kamishibai("tree", str(path), "--json").stdout)
    turns = [n for n in tree["nodes"] if n["parent"]]
    assert len(turns) == 8
    assert turns[2]["fields"] == {"character": "Qiqi", "motion": "sit on railing", "adverb": "gently",
                                  "background": "town", "time_of_day": "day"}
    assert turns[-1]["depth"] == 8 and turns[-1]["state"] == {"stamina": 50, "social": 50, "entertainment": 50}
    info = json.loads(kamishibai("info", str(path), "--json").stdout)
    assert info["turns"] == 8 and info["branches"] == 1
    assert "Qiqi" in info["cast"]
    text = kamishibai("tree", str(path))
    assert text.returncode == 0 and "sit on railing" in text.stdout


LONG = "n" * 300


@pytest.mark.parametrize("args,needle", [
    (("tree", "/nonexistent/story"), "No project"),
    (("info", "/dev/null"), "not a Kamishibai project"),
    (("import-demo", "/nonexistent.txt", "--project", "{tmp}/p"), "Can't read"),
    (("new", ""), "has no name to give the project folder"),
    (("new", "{tmp}/  "), "has no name to give the project folder"),
    (("new", "{tmp}/ok", "--name", "a\nb"), "holds a line break"),
    (("new", f"{{tmp}}/{LONG}"), "bytes long; a file or folder name may have at most 255"),
    (("import-demo", "{demo}", "--project", f"{{tmp}}/{LONG}"), "too long for the file system"),
    (("start-state", "{tmp}/none.kamishibai"), "required: stamina, social, fun"),
    (("start-state", "{tmp}/none.kamishibai", "10", "20", "101"), "from 0 to 100, not 101"),
])
def test_errors_exit_2_without_traceback(tmp_path: Path, demo_file: Path, args: tuple[str, ...],
                                        needle: str) -> None:
    result = kamishibai(*(a.replace("{tmp}", str(tmp_path)).replace("{demo}", str(demo_file)) for a in args))
    assert result.returncode == 2
    assert needle in result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".kamishibai")], "nothing was created"


def test_every_command_prints_its_help() -> None:
    from studio.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    for name in commands:
        result = kamishibai(name, "--help")
        assert result.returncode == 0 and "usage: kamishibai" in result.stdout, (name, result.stderr[-300:])


def test_malformed_demo_reports_line_numbers(tmp_path: Path) -> None:
    demo = tmp_path / "demo.txt"
    # a line without field names is a free-text turn; one with an empty field is malformed
    demo.write_text("Character: Qiqi; Motion: run; Background: day town\nQiqi waves\nCharacter: Qiqi; Motion: ;\n")
    result = kamishibai("import-demo", str(demo), "--project", str(tmp_path / "p"))
    assert result.returncode == 2
    assert "line 3:" in result.stderr and "line 2:" not in result.stderr and "Traceback" not in result.stderr


def test_sample_builds_two_generated_branches(tmp_path: Path) -> None:
    result = kamishibai("sample", str(tmp_path / "sample"))
    assert result.returncode == 0, result.stderr
    tree = json.loads(kamishibai("tree", str(tmp_path / "sample.kamishibai"), "--json").stdout)
    turns = [n for n in tree["nodes"] if n["parent"]]
    assert len(turns) == 8
    assert all(n["takes"] and n["takes"][0]["status"] == "done" for n in turns)
    leaves = [n for n in turns if not any(m["parent"] == n["id"] for m in turns)]
    assert len(leaves) == 2


def test_sketch_sheet_writes_a_png_of_every_motion(tmp_path: Path) -> None:
    from PIL import Image

    from studio.engines.sketch.vocabulary import MOTIONS

    out = tmp_path / "motions.png"
    result = kamishibai("sketch-sheet", str(out))
    assert result.returncode == 0, result.stderr
    with Image.open(out) as sheet:
        width, height = sheet.size
        colours = sheet.convert("RGB").getcolors(1 << 20)
    assert width >= 8 * 120 and height >= (len(MOTIONS) // 8) * 120
    assert colours is not None and len(colours) > 500, "a real drawing, not a blank page"
    assert [p.name for p in tmp_path.iterdir()] == ["motions.png"], "no partial file is left"
    (tmp_path / "notes.txt").write_text("a file, not a folder")
    refused = kamishibai("sketch-sheet", str(tmp_path / "notes.txt" / "motions.png"))
    assert refused.returncode == 2 and "Can't write" in refused.stderr and "internal error" not in refused.stderr


def test_say_refuses_a_position_outside_the_dialogue_and_an_empty_speaker(tmp_path: Path, demo_file: Path) -> None:
    path = tmp_path / "story.kamishibai"
    assert kamishibai("import-demo", str(demo_file), "--project", str(path)).returncode == 0
    node = next(n["id"] for n in json.loads(kamishibai("tree", str(path), "--json").stdout)["nodes"] if n["parent"])
    for args, needle in ((("--at", "0"), "N is from 1 to 1"), (("--at", "3"), "N is from 1 to 1"),
                         (("--speaker", " "), "--speaker is empty")):
        result = kamishibai("say", str(path), node, "Hello!", *args)
        assert result.returncode == 2 and needle in result.stderr, result.stderr
    assert kamishibai("say", str(path), node, "second", "--speaker", "Mei").returncode == 0
    assert kamishibai("say", str(path), node, "first", "--at", "1", "--speaker", "Mei").returncode == 0
    story = kamishibai("story", str(path), node, "--json")
    lines = [line["text"] for line in json.loads(story.stdout)["dialogue"]]
    assert lines == ["first", "second"]


def test_a_deep_tree_prints_without_endless_indentation(tmp_path: Path) -> None:
    demo = tmp_path / "deep.txt"
    demo.write_text("\n".join(f"Character: Qiqi; Motion: run; Background: town; {'word ' * 20}{i}"
                              for i in range(60)) + "\n")
    path = tmp_path / "deep.kamishibai"
    assert kamishibai("import-demo", str(demo), "--project", str(path)).returncode == 0
    lines = kamishibai("tree", str(path)).stdout.splitlines()
    assert len(lines) == 61
    assert max(len(line) - len(line.lstrip()) for line in lines) <= 64  # 32 levels of two spaces
    assert lines[-1].lstrip().startswith("[60] ") and "…" in lines[-1]


def test_import_demo_reads_standard_input(tmp_path: Path) -> None:
    path = tmp_path / "piped.kamishibai"
    lines = "Character: Qiqi; Motion: run; Background: town\nCharacter: Qiqi; Motion: jump; Background: park\n"
    result = subprocess.run([sys.executable, "-m", "studio", "import-demo", "-", "--project", str(path)],
                            input=lines, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "imported 2 turns" in result.stdout, result.stderr
    bad = subprocess.run([sys.executable, "-m", "studio", "import-demo", "-", "--project", str(tmp_path / "bad")],
                         input="Character: Qiqi; Motion: run\n", capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.startswith("kamishibai: error: standard input: 1 malformed line")


def test_start_state_refuses_a_character_the_story_does_not_know(tmp_path: Path) -> None:
    from studio.storage import Project

    path = tmp_path / "cast.kamishibai"
    assert kamishibai("new", str(tmp_path / "cast")).returncode == 0  # the default cast: Qiqi, Yuzu...
    demo = tmp_path / "mei.txt"
    demo.write_text("Character: Mei; Motion: run; Background: town\n")
    assert kamishibai("import-demo", str(demo), "--project", str(path)).returncode == 0

    def starts() -> dict[str, tuple[int, int, int]]:
        with Project.open(path, read_only=True) as project:
            return {name: (s.stamina, s.social, s.entertainment)
                    for name, s in project.tree.root.start_states.items()}

    for name, needle in (("Nobody", "'Nobody' is not a character of this story (characters: Aoi, Mei, Qiqi, "),
                         ("Qiqqi", "Did you mean Qiqi?")):
        refused = kamishibai("start-state", str(path), "--character", name, "90", "10", "20")
        assert refused.returncode == 2, refused.stdout
        assert needle in refused.stderr and "--new" in refused.stderr, refused.stderr
        assert "starts at" not in refused.stdout
    assert starts() == {}, "a refused name changes nothing"
    for name, shown in (("qiqi ", "Qiqi"), ("Mei", "Mei")):  # the cast, and a character a turn acts with
        done = kamishibai("start-state", str(path), "--character", name, "90", "10", "20")
        assert done.returncode == 0 and done.stdout.startswith(f"{shown} starts at stamina 90"), done.stderr
    new = kamishibai("start-state", str(path), "--character", "Hana", "--new", "70", "60", "50")
    assert new.returncode == 0, new.stderr
    again = kamishibai("start-state", str(path), "--character", "hana", "71", "60", "50")  # now she has a start
    assert again.returncode == 0 and again.stdout.startswith("Hana starts at stamina 71"), again.stderr
    assert starts() == {"Qiqi": (90, 10, 20), "Mei": (90, 10, 20), "Hana": (71, 60, 50)}
    assert kamishibai("start-state", str(path), "55", "50", "50").returncode == 0, "everyone: no name to check"


def test_new_and_unbundle_refuse_a_destination_inside_a_project(tmp_path: Path) -> None:
    """`new s1.kamishibai/inner` and `unbundle b.zip s1.kamishibai/media/nested` made a
    project inside another, whose exports could then write into the outer one's media."""
    assert kamishibai("new", str(tmp_path / "s1")).returncode == 0
    outer = tmp_path / "s1.kamishibai"
    assert kamishibai("bundle", str(outer), str(tmp_path / "b.zip")).returncode == 0
    for args in (("new", str(outer / "inner")), ("unbundle", str(tmp_path / "b.zip"), str(outer / "media" / "nested"))):
        done = kamishibai(*args)
        assert done.returncode == 2, done.stdout
        assert "inside the project folder" in done.stderr and str(outer) in done.stderr, done.stderr
        assert "internal error" not in done.stderr
    assert not any("inner" in p.name for p in outer.iterdir())
    assert list((outer / "media").iterdir()) == []


def test_an_export_never_writes_inside_another_project(tmp_path: Path) -> None:
    from studio.export.errors import ExportError
    from studio.export.output import check_outside_project
    from studio.storage import Project

    Project.create(tmp_path / "outer").close()
    Project.create(tmp_path / "other").close()
    outer = tmp_path / "outer.kamishibai"
    inner = outer / "media" / "inner.kamishibai"  # made by hand (or by an older version)
    inner.mkdir()
    (inner / "project.db").write_bytes((tmp_path / "other.kamishibai" / "project.db").read_bytes())
    with pytest.raises(ExportError, match=f"inside the project folder {outer}"):
        check_outside_project(outer / "media" / "takes" / "x.mp4", inner)
    with pytest.raises(ExportError, match="inside the project folder"):
        check_outside_project(outer / "out.mp4", tmp_path / "other.kamishibai")
    check_outside_project(tmp_path / "out.mp4", inner)


def _mismatched_mini(folder: Path) -> Path:
    """A checkpoints folder whose mini config gives the decoder's feed-forward layers another width
    than its weights have (a mismatch only loading finds: doctor compares the layer counts)."""
    import shutil

    from studio.composition import default_checkpoints

    shutil.copytree(default_checkpoints() / "mini", folder / "mini")
    config = folder / "mini" / "config.json"
    manifest = json.loads(config.read_text(encoding="utf-8"))
    manifest["model"]["decoder"]["mlp_ratio"] += 1.0
    config.write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def _run_with(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env})


def _xdg(tmp_path: Path) -> dict[str, str]:
    return {f"XDG_{kind}_HOME": str(tmp_path / kind.lower()) for kind in ("CONFIG", "DATA", "CACHE")}


def test_generating_commands_use_the_checkpoints_folder_of_the_settings_or_the_option(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    env = _xdg(tmp_path)
    broken = _mismatched_mini(tmp_path / "weights")
    for command in ("play", "reroll", "fill", "run-queue", "doctor"):
        assert "--checkpoints" in _run_with(env, command, "--help").stdout, command
    settings = tmp_path / "config" / "Kamishibai" / "Kamishibai Studio" / "settings.ini"
    settings.parent.mkdir(parents=True)
    settings.write_text(f"[weights]\ncheckpoints={broken}\n", encoding="utf-8")
    doctor = _run_with(env, "doctor", "--json")
    assert json.loads(doctor.stdout)["checkpoints"] == str(broken), doctor.stdout
    assert _run_with(env, "new", str(tmp_path / "p")).returncode == 0
    played = _run_with(env, "play", str(tmp_path / "p"), "--engine", "mini", "-i", "Motion: wave.")
    assert played.returncode != 0 and "does not fit the model in its config.json" in played.stdout + played.stderr
    settings.unlink()  # the app's own folder again, unless --checkpoints names another
    other = _xdg(tmp_path / "other")
    played = _run_with(other, "play", str(tmp_path / "p"), "--engine", "mini", "--checkpoints", str(broken),
                       "-i", "Motion: wave.")
    assert played.returncode != 0 and "does not fit the model in its config.json" in played.stdout + played.stderr


def test_a_failed_play_reports_no_node_state_or_motion_for_the_turn_it_did_not_keep(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    env = _xdg(tmp_path)
    broken = _mismatched_mini(tmp_path / "weights")
    project = str(tmp_path / "p")
    assert _run_with(env, "new", project).returncode == 0
    args = ("play", project, "--engine", "mini", "--checkpoints", str(broken), "--seed", "1", "-i", "Motion: wave.")
    played = _run_with(env, *args, "--json")
    assert played.returncode == 1, played.stderr
    result = json.loads(played.stdout)
    assert result["kept"] is False and result["job_status"] == "failed"
    assert not {"node", "take", "state", "deltas", "motion_level", "clip"} & set(result), result
    assert "does not fit" in result["error"]
    printed = _run_with(env, *args)
    assert "turn not kept (failed)" in printed.stdout and "state" not in printed.stdout, printed.stdout
    assert "node " not in printed.stdout and "(The new turn was not kept.)" in printed.stderr, printed.stderr
    tree = _run_with(env, "tree", project, "--json")
    assert tree.returncode == 0 and "Motion: wave" not in tree.stdout


def test_eval_uses_the_checkpoints_folder_of_the_settings(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    env = _xdg(tmp_path)
    empty = tmp_path / "no weights here"
    (empty / "mini").mkdir(parents=True)  # its own mini/, empty: without one the app's mini weights are used
    settings = tmp_path / "config" / "Kamishibai" / "Kamishibai Studio" / "settings.ini"
    settings.parent.mkdir(parents=True)
    settings.write_text(f"[weights]\ncheckpoints={empty}\n", encoding="utf-8")
    evaluated = _run_with(env, "eval", "mini", "--episodes", "1", "--no-report")
    assert evaluated.returncode == 2 and f"{empty}/mini/config.json" in evaluated.stderr, evaluated.stderr
