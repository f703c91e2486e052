"""Chinese turns through the command line: `play --json` says what it understood of a Chinese
turn, `import-demo --generate` of a Chinese game_demo file makes takes that play each line, and
the subtitles exported for the branch are Chinese sentences. Before, each Chinese motion was
drawn standing idle in the town, "'跑步' unknown, shown as 'idle'", and captioned
"小明 跑步 in the 公园, at 晚上."."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from PIL import Image

from studio.engines.catalog.sketch import VERSION

DEMO = (
    "角色：小明；动作：跑步；背景：公园；时间：晚上\n"
    "小明在海边慢慢地走\n"
    "角色：小明；動作：坐在長椅上看書；背景：圖書館；時間：傍晚\n"
    "角色：小明；动作：倒立；背景：森林\n"
)


def _kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=300)


def test_play_json_says_what_a_chinese_turn_was_understood_as(tmp_path: Path) -> None:
    project = tmp_path / "story.kamishibai"
    assert _kamishibai("new", str(project)).returncode == 0
    played = _kamishibai("play", str(project), "--engine", "sketch", "--setting", "height=32", "--setting",
                         "width=48", "--json", "-i", "角色：小明；動作：揮手；背景：車站；時間：黃昏；鏡頭：特寫")
    assert played.returncode == 0, played.stderr
    result = json.loads(played.stdout)
    assert result["understood"] == {"character": "小明", "motion": "wave", "place": "station", "time": "sunset",
                                    "camera": "zoom", "level": 2}
    assert not [w for w in result["warnings"] if "unknown" in w or "no motion" in w], result["warnings"]
    assert Path(result["clip"]).read_bytes()[4:8] == b"ftyp"


def test_a_chinese_demo_file_generates_takes_that_play_it_and_subtitles_in_chinese(tmp_path: Path) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text(DEMO, encoding="utf-8")
    project = tmp_path / "story.kamishibai"
    result = _kamishibai("import-demo", str(demo), "--project", str(project), "--generate")
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(project / "project.db") as db:
        rows = db.execute("SELECT instruction_raw, engine_version, warnings, conditioning, clip_path, poster_path "
                          "FROM takes ORDER BY created_at").fetchall()
    assert [row[0] for row in rows] == DEMO.splitlines()
    assert {row[1] for row in rows} == {VERSION}
    played = [(c["character"], c["motion"], c["location"], c["time_of_day"], c["adverb"])
              for c in (json.loads(row[3]) for row in rows)]
    assert played == [
        ("小明", "run", "park", "night", ""),
        ("小明", "walk", "beach", "night", "slowly"),  # the night goes on from the turn before
        ("小明", "read", "library", "sunset", ""),  # reads on the bench, as "sits on a bench and reads" does
        ("小明", "idle", "forest", "sunset", ""),
    ]
    warnings = [[w for w in json.loads(row[2]) if "not in the cast" not in w] for row in rows]
    assert warnings[:2] == [[], []]
    assert warnings[3] == ["'倒立' unknown, shown as 'idle'"]
    for *_, clip, poster in rows:
        assert (project / clip).read_bytes()[4:8] == b"ftyp"
        with Image.open(project / poster) as picture:
            assert picture.size == (720, 480)

    srt = tmp_path / "episode.srt"
    exported = _kamishibai("export", str(project), "--out", str(srt), "--quiet")
    assert exported.returncode == 0, exported.stderr
    captions = [block.splitlines()[2:] for block in srt.read_text(encoding="utf-8").strip().split("\n\n")]
    assert ["".join(lines) for lines in captions] == [
        "晚上，小明在公园跑步。",
        "小明在海边慢慢地走。",
        "傍晚，小明在圖書館坐在長椅上看書。",
        "小明在森林倒立。",
    ]
