"""`doctor --checkpoints DIR` with a folder that has no mini/ (only AnimeGamer's weights): the
mini engine is available from the app's own copy, and the doctor says which copy it uses (mini
was "not available", its five files listed missing under DIR/mini)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from studio.shipped import shipped


def test_mini_runs_from_the_app_copy_and_the_doctor_says_so(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    chosen = tmp_path / "weights"
    (chosen / "animegamer").mkdir(parents=True)
    main(["doctor", "--checkpoints", str(chosen)])
    out = capsys.readouterr().out
    mini = next(line for line in out.splitlines() if line.lstrip().startswith("mini "))
    assert "available" in mini and "not available" not in mini, out
    assert (f"Uses the app's own mini weights in {shipped('checkpoints') / 'mini'}: the checkpoints folder "
            f"{chosen} has no mini folder.") in out, out
    assert f"{chosen / 'mini'}" not in out.replace(f"{chosen} has no mini", ""), out
    assert f"{chosen / 'animegamer'}" in out  # the chosen folder's own engines are still looked for in it
