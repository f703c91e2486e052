"""A game_demo file written in Japanese, imported and generated from the command line, gives
takes that play what each line says: before, every Japanese motion was drawn standing idle
in the town, with a warning that the word was unknown."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from PIL import Image

from studio.engines.catalog.sketch import VERSION

DEMO = (
    "キャラクター：美咲；動作：走る；背景：夜の港\n"
    "美咲が公園でゆっくり歩く\n"
    "キャラクター：海；動作：手を振っている；背景：浜辺；時間帯：夕方\n"
    "キャラクター：美咲；動作：ベンチに座る；背景：図書館\n"
    "キャラクター：美咲；動作：逆立ち；背景：森\n"
)


def test_a_japanese_demo_file_generates_takes_that_play_it(tmp_path: Path) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text(DEMO, encoding="utf-8")
    project = tmp_path / "story.kamishibai"
    result = subprocess.run([sys.executable, "-m", "studio", "import-demo", str(demo), "--project", str(project),
                             "--generate"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(project / "project.db") as db:
        rows = db.execute("SELECT instruction_raw, engine_version, warnings, conditioning, clip_path, poster_path "
                          "FROM takes ORDER BY created_at").fetchall()
    assert [row[0] for row in rows] == DEMO.splitlines()
    assert {row[1] for row in rows} == {VERSION}
    played = [(c["character"], c["motion"], c["location"], c["time_of_day"], c["adverb"], c["seat"])
              for c in (json.loads(row[3]) for row in rows)]
    assert played == [
        ("美咲", "run", "sea", "night", "", ""),
        ("美咲", "walk", "park", "night", "slowly", ""),  # the night goes on from the turn before
        ("海", "wave", "beach", "sunset", "", ""),
        ("美咲", "sit", "library", "sunset", "", "bench"),
        ("美咲", "idle", "forest", "sunset", "", ""),
    ]
    warnings = [json.loads(row[2]) for row in rows]
    assert warnings[:4] == [[], [], [], []]
    assert warnings[4] == ["'逆立ち' unknown, shown as 'idle'"]
    for _, _, _, _, clip, poster in rows:
        assert (project / clip).read_bytes()[4:8] == b"ftyp"  # an mp4 written
        with Image.open(project / poster) as picture:
            assert picture.size == (720, 480)
