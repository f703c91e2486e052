"""Ctrl+C reaching `play` just after its clip was made (the job done, the result not yet
taken in) removes the new turn, as a stopped `play` keeps nothing. Its take's folder (clip,
poster, representation) used to stay behind, named by nothing: each such Ctrl+C made the
project bigger for good. Now the files go with the turn."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

PLAY_THEN_PAUSE = textwrap.dedent("""
    import sys, time
    import studio.cli.generate_cmds as commands
    from studio.cli import main

    taken_in = commands._job_result

    def pause_then_take_in(*args, **kwargs):
        print("clip made", flush=True)  # the job is done: its take and files are written
        time.sleep(60)  # Ctrl+C arrives here
        return taken_in(*args, **kwargs)

    commands._job_result = pause_then_take_in
    sys.exit(main(sys.argv[1:]))
""")


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120)


def test_ctrl_c_after_the_clip_is_made_leaves_no_take_folder(tmp_path: Path) -> None:
    path = tmp_path / "story.kamishibai"
    assert kamishibai("new", str(path)).returncode == 0
    first = kamishibai("play", str(path), "--json", "Character: Qiqi; Motion: run.")
    assert first.returncode == 0, first.stderr
    kept_take = json.loads(first.stdout)["take"]

    args = ["play", str(path), "Character: Qiqi; Motion: walk."]
    play = subprocess.Popen([sys.executable, "-c", PLAY_THEN_PAUSE, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert play.stdout is not None
        assert play.stdout.readline().strip() == "clip made"
        assert len(list((path / "media" / "takes").iterdir())) == 2  # the new take's folder is there
        play.send_signal(signal.SIGINT)
        _out, err = play.communicate(timeout=60)
    finally:
        if play.poll() is None:
            play.kill()
            play.wait()

    assert play.returncode == 130, err
    assert "The new turn was not kept." in err
    assert [p.name for p in (path / "media" / "takes").iterdir()] == [kept_take]
    tree = json.loads(kamishibai("tree", "--json", str(path)).stdout)
    assert [take["id"] for node in tree["nodes"] for take in node["takes"]] == [kept_take]
    info = json.loads(kamishibai("info", "--json", str(path)).stdout)
    assert info["problems"] == [] and info["turns"] == 1
    again = kamishibai("play", str(path), "--json", "Character: Qiqi; Motion: walk.")  # the way on
    assert again.returncode == 0, again.stderr
    assert Path(json.loads(again.stdout)["clip"]).is_file()
