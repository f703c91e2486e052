"""The one-folder PyInstaller build (`make dist`): how long it takes, how big it is, and
that the built app really starts: `--version` exits 0 and prints the version, the window
opens offscreen and closes with 0, the headless `sample` command generates clips, `play`
generates a turn in an engine process of its own (the frozen app started again as that
process) and `export` writes an OpenTimelineIO timeline (its adapters' manifest bundled).

Any failure raises, so `make bench` fails with it. Needs PyInstaller (`make bench`
installs the `dist` extra). `quick` reuses an existing dist/kamishibai/ instead of building.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from studio import __version__
from studio.benchmarks import BenchResult

TITLE = "Packaging: the one-folder build"
ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "dist" / "kamishibai" / "kamishibai"


def _folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def _run(argv: list[str], env: dict[str, str], timeout: float) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    result = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout, cwd=ROOT)
    return time.perf_counter() - start, result


def _check(result: subprocess.CompletedProcess[str], what: str) -> None:
    if result.returncode != 0:
        raise RuntimeError(f"{what} exited with {result.returncode}:\n{(result.stdout + result.stderr)[-3000:]}")


def build(env: dict[str, str]) -> float:
    pyinstaller = shutil.which("pyinstaller", path=str(Path(sys.executable).parent)) or shutil.which("pyinstaller")
    if pyinstaller is None:
        raise RuntimeError("PyInstaller is not installed: `pip install -e .[dist]` (make bench does it)")
    seconds, result = _run([pyinstaller, "--noconfirm", "--clean", "--log-level", "WARN", "--distpath", "dist",
                            "--workpath", "build/pyinstaller", "packaging/kamishibai.spec"], env, 1800)
    _check(result, "pyinstaller")
    return seconds


def run(quick: bool) -> list[BenchResult]:
    results: list[BenchResult] = []
    with tempfile.TemporaryDirectory(prefix="kamishibai-dist-") as tmp:
        home = Path(tmp)
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(home / "config"),
               "XDG_DATA_HOME": str(home / "data"), "XDG_CACHE_HOME": str(home / "cache")}
        if not (quick and APP.is_file()):
            seconds = build(env)
            results.append(BenchResult("build (pyinstaller --clean)", seconds, "s", note="`make dist`"))
        size = _folder_size(APP.parent) / 1e6
        ffmpeg = sum(_folder_size(p) for p in APP.parent.glob("_internal/imageio_ffmpeg")) / 1e6
        results.append(BenchResult("dist/kamishibai/ size", size, "MB",
                                   note=f"no torch; {ffmpeg:.0f} MB of it is imageio-ffmpeg's static ffmpeg"))

        seconds, result = _run([str(APP), "--version"], env, 120)
        _check(result, "kamishibai --version")
        if result.stdout.strip() != f"kamishibai {__version__}":
            raise RuntimeError(f"kamishibai --version printed {result.stdout!r}")
        results.append(BenchResult("`kamishibai --version`", seconds, "s", goal="exit 0, prints the version",
                                   met=True))

        env_gui = {**env, "KAMISHIBAI_QUIT_AFTER_MS": "1500"}
        seconds, result = _run([str(APP)], env_gui, 120)
        _check(result, "the window (offscreen)")
        results.append(BenchResult("the window opens offscreen and closes", seconds, "s", goal="exit 0", met=True,
                                   note="includes 1.5 s open"))
        link = APP.with_name("kamishibai-studio")
        seconds, result = _run([str(link)], env_gui, 120)
        _check(result, "kamishibai-studio (offscreen)")

        seconds, result = _run([str(APP), "sample", str(home / "sample.kamishibai")], env, 600)
        _check(result, "kamishibai sample")
        clips = list((home / "sample.kamishibai" / "media" / "takes").glob("*/*.mp4"))
        if len(clips) != 8:
            raise RuntimeError(f"the built app's sample has {len(clips)} clips, not 8")
        results.append(BenchResult("`kamishibai sample` (8 clips, sketch engine)", seconds, "s", goal="exit 0",
                                   met=True, note="numpy, Pillow and ffmpeg inside the bundle"))
        results += _play_and_export(home / "sample.kamishibai", env)
    return results


def _play_and_export(project: Path, env: dict[str, str]) -> list[BenchResult]:
    """A turn played in an engine process (the frozen executable started as one), then its
    branch exported as an OpenTimelineIO timeline whose clips are there."""
    seconds, result = _run([str(APP), "play", str(project), "--engine", "sketch", "--engine-host", "process",
                            "--json", "Qiqi waves in the park"], env, 600)
    _check(result, "kamishibai play (engine process)")
    played = json.loads(result.stdout)
    if played.get("status") != "done":
        raise RuntimeError(f"the built app's play made no clip: {result.stdout[-2000:]}")
    results = [BenchResult("`kamishibai play` (sketch, engine process)", seconds, "s", goal="exit 0", met=True,
                           note="the frozen app runs the engine in a process of its own")]
    timeline = project.parent / "episode.otio"
    seconds, result = _run([str(APP), "export", str(project), "--leaf", played["node"], "--out", str(timeline),
                            "-q"], env, 600)
    _check(result, "kamishibai export --out episode.otio")
    clips = json.loads(timeline.read_text(encoding="utf-8"))
    if "Timeline" not in str(clips.get("OTIO_SCHEMA", "")):
        raise RuntimeError(f"{timeline} is not an OpenTimelineIO timeline")
    results.append(BenchResult("`kamishibai export` to OpenTimelineIO", seconds, "s", goal="exit 0", met=True,
                               note="its adapters' manifest inside the bundle"))
    return results
