"""Every command that writes, run on a disk without room, exits with status 1 (the README:
"1 when its work failed (... a disk without room)"), with a message that says the disk is full
and names it (or the file), never "internal error". `new`, `play`, `use`, `story`, `unbundle`,
`import-demo` and `fill --run` exited with 2, the status of a command used wrongly, so that a
script took a full disk for a mistake in its own arguments.

The small disk is a tmpfs mounted in a user namespace of the test's own (``unshare -rm``),
filled to its last byte after the project is copied onto it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.user_limits import private_mounts

ROOT = Path(__file__).resolve().parent.parent
LINE = "Character: Qiqi; Motion: run; Background: day town"
QUICK = ("--setting", "frames=3", "--setting", "width=64", "--setting", "height=48")


def _kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180,
                          cwd=ROOT, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})


def _json(*args: str) -> dict[str, str]:
    done = _kamishibai(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


DRIVER = """
    import json, os, shutil, subprocess, sys
    from pathlib import Path
    small, source, commands = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3])
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(small)], check=True)
    shutil.copytree(source, small / source.name)
    from tests.user_limits import fill_the_disk
    fill_the_disk(str(small / "filler"))  # the disk full to its last byte
    results = []
    for args in commands:
        done = subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True)
        results.append([done.returncode, done.stderr])
    print(json.dumps(results))
"""


@pytest.mark.skipif(sys.platform != "linux" or not private_mounts(),
                    reason="needs `unshare -rm` to mount a small disk")
def test_every_writing_command_on_a_full_disk_exits_1(tmp_path: Path) -> None:
    made = _kamishibai("new", str(tmp_path / "story"))
    assert made.returncode == 0, made.stderr
    source = tmp_path / "story.kamishibai"
    leaf = _json("play", str(source), "-i", LINE, *QUICK)["node"]
    assert _kamishibai("reroll", str(source), leaf, *QUICK).returncode == 0  # a second take, for `use`
    demo = tmp_path / "demo.txt"
    demo.write_text(f"{LINE}\n", encoding="utf-8")
    imported = _kamishibai("import-demo", str(demo), "--project", str(source), "--parent", leaf)
    assert imported.returncode == 0, imported.stderr  # a turn without a take, for `fill --run`
    bundle = tmp_path / "story.zip"
    assert _kamishibai("bundle", str(source), str(bundle)).returncode == 0

    small = tmp_path / "small"
    small.mkdir()
    project = str(small / source.name)
    commands = [
        ["new", str(small / "another")],
        ["play", project, "-i", LINE, *QUICK],
        ["say", project, leaf, "Hello there"],
        ["narrate", project, leaf, "It was a fine day"],
        ["use", project, leaf, "1"],
        ["story", project, leaf, "--notes", "a wide shot"],
        ["bundle", project, str(small / "story.zip")],
        ["unbundle", str(bundle), str(small / "copy")],
        ["export", project, "--leaf", leaf, "--out", str(small / "episode.mp4"), "-q"],
        ["import-demo", str(demo), "--project", project, "--parent", leaf],
        ["fill", project, "--run", *QUICK],
    ]
    script = textwrap.dedent(DRIVER)
    done = subprocess.run(["unshare", "-rm", sys.executable, "-c", script, str(small), str(source),
                           json.dumps(commands)], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    statuses = {args[0]: code for args, (code, _) in zip(commands, results, strict=True)}
    assert statuses == {args[0]: 1 for args in commands}, results
    for args, (_, stderr) in zip(commands, results, strict=True):
        assert "internal error" not in stderr and "Traceback" not in stderr, (args, stderr)
        assert "full" in stderr and ("disk" in stderr or str(small) in stderr), (args, stderr)
