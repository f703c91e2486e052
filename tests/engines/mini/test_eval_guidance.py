"""`kamishibai eval mini --guidance G` evaluates with classifier-free guidance (an undistilled
decoder needs it to be read fairly), refused by name outside the engine's setting's range; the
metrics and the table say the guidance used."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _eval(*args: str, timeout: int = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", "eval", "mini", "--no-report", *args],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)


@pytest.mark.parametrize(("value", "says"), [
    ("0.5", "argument --guidance: must be from 1 to 8, not 0.5"),
    ("9", "argument --guidance: must be from 1 to 8, not 9"),
    ("nan", "argument --guidance: must be from 1 to 8, not nan"),
    ("strong", "argument --guidance: expected a number, not 'strong'"),
])
def test_a_guidance_outside_the_setting_is_refused_by_name(value: str, says: str, tmp_path: Path) -> None:
    result = _eval("--guidance", value, "--checkpoints", str(tmp_path))
    assert result.returncode == 2 and says in result.stderr and "Traceback" not in result.stderr


@pytest.mark.skipif(not (ROOT / "checkpoints" / "mini" / "config.json").is_file(), reason="no shipped weights")
def test_guidance_is_used_and_reported(tmp_path: Path) -> None:
    """One held-out episode, 1 step, with and without guidance 4: the clips differ (the Frechet
    distance moves) and the metrics name the guidance."""
    common = ("--episodes", "1", "--steps", "1", "--threads", "1", "--json", "--checkpoints", str(ROOT / "checkpoints"))
    plain = _eval(*common, timeout=600)
    guided = _eval(*common, "--guidance", "4", timeout=600)
    assert plain.returncode == 0 and guided.returncode == 0, plain.stderr + guided.stderr
    without, with_guidance = json.loads(plain.stdout), json.loads(guided.stdout)
    assert "guidance" not in without and with_guidance["guidance"] == 4.0
    assert with_guidance["fd_generated"] != without["fd_generated"]
