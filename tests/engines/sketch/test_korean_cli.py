"""Korean turns through the command line: `play --json` says what it understood of a Korean
turn, `import-demo --generate` of a Korean game_demo file makes takes that play each line, and
the subtitles exported for the branch are Korean sentences. Before, a Korean turn's fields were
free text: each was drawn standing idle in the town, "no motion found in '캐릭터: 민수; 동작: 달리기;
...'", and its subtitle was that text as written."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from PIL import Image

DEMO = (
    "캐릭터: 민수; 동작: 달리기; 배경: 공원; 시간: 밤\n"
    "민수가 바닷가에서 천천히 걷는다\n"
    "캐릭터: 민수; 동작: 책을 읽는다; 배경: 도서관; 시간: 저녁\n"
    "캐릭터: 민수; 동작: 물구나무서기; 배경: 숲\n"
    "캐릭터: 민수; 동작: 안 달린다; 배경: 학교\n"
)


def _kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=300)


def test_play_json_says_what_a_korean_turn_was_understood_as(tmp_path: Path) -> None:
    project = tmp_path / "story.kamishibai"
    assert _kamishibai("new", str(project)).returncode == 0
    turn = "캐릭터: 민수; 동작: 손을 흔든다; 배경: 역; 시간: 해질녘; 카메라: 클로즈업"
    played = _kamishibai("play", str(project), "--engine", "sketch", "--setting", "height=32", "--setting",
                         "width=48", "--json", "-i", turn)
    assert played.returncode == 0, played.stderr
    result = json.loads(played.stdout)
    assert result["understood"] == {"character": "민수", "motion": "wave", "place": "station", "time": "sunset",
                                    "camera": "zoom", "level": 2}
    assert not [w for w in result["warnings"] if "unknown" in w or "no motion" in w], result["warnings"]
    assert Path(result["clip"]).read_bytes()[4:8] == b"ftyp"


def test_a_korean_demo_file_generates_takes_that_play_it_and_subtitles_in_korean(tmp_path: Path) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text(DEMO, encoding="utf-8")
    project = tmp_path / "story.kamishibai"
    result = _kamishibai("import-demo", str(demo), "--project", str(project), "--generate")
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(project / "project.db") as db:
        rows = db.execute("SELECT instruction_raw, warnings, conditioning, clip_path, poster_path "
                          "FROM takes ORDER BY created_at").fetchall()
    assert [row[0] for row in rows] == DEMO.splitlines()
    played = [(c["character"], c["motion"], c["location"], c["time_of_day"], c["adverb"])
              for c in (json.loads(row[2]) for row in rows)]
    assert played == [
        ("민수", "run", "park", "night", ""),
        ("민수", "walk", "beach", "night", "slowly"),  # the night goes on from the turn before
        ("민수", "read", "library", "sunset", ""),
        ("민수", "idle", "forest", "sunset", ""),
        ("민수", "idle", "school", "sunset", ""),
    ]
    warnings = [[w for w in json.loads(row[1]) if "not in the cast" not in w] for row in rows]
    assert warnings[:3] == [[], [], []]
    assert warnings[3] == ["'물구나무서기' unknown, shown as 'idle'"]
    assert warnings[4] == ["'안 달린다' is a motion not done, shown as 'idle'"]
    for *_, clip, poster in rows:
        assert (project / clip).read_bytes()[4:8] == b"ftyp"
        with Image.open(project / poster) as picture:
            assert picture.size == (720, 480)

    srt = tmp_path / "episode.srt"
    exported = _kamishibai("export", str(project), "--out", str(srt), "--quiet")
    assert exported.returncode == 0, exported.stderr
    captions = [" ".join(block.splitlines()[2:]) for block in srt.read_text(encoding="utf-8").strip().split("\n\n")]
    assert captions == [
        "민수는 밤에 공원에서 달린다.",
        "민수가 바닷가에서 천천히 걷는다.",
        "민수는 저녁에 도서관에서 책을 읽는다.",
        "민수는 숲에서 물구나무선다.",
        "민수는 학교에서 안 달린다.",
    ]
