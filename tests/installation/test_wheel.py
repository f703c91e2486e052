"""The wheel (`pip install kamishibai-studio`, `pip wheel .`) holds what the app reads at run
time, and an installed copy runs from it alone.

The app looks for ``resources/`` (icons, the theme, the sample story, the sketch engine's
cast and world) and ``checkpoints/`` (the mini engine's weights) beside ``studio/`` in a
checkout, and in ``studio/_shipped/`` once installed (studio/shipped.py). The wheel used to
hold ``studio/`` only, so an installed copy failed at once: ``kamishibai sample`` ended with
"Could not read .../site-packages/resources/cast.json", the window had no icons and no theme,
and the mini engine found no weights (QA). Then it held the two folders at the top of
site-packages, where folders with such common names can clash with another package's.

The wheel is built once for the module from a copy of the sources (pip builds in the source
folder, and the checkout should not get build/ and egg-info folders), with the environment's
setuptools (no build isolation: nothing is downloaded), then installed with ``--target``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.installation.conftest import REPO

pytestmark = pytest.mark.slow

SOURCES = ("pyproject.toml", "README.md", "LICENSE", "studio", "resources", "checkpoints")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".*")
MAX_WHEEL_MB = 60  # the mini weights are about 30 MB; a training log or a stray checkpoint would show here


def _setuptools_recent_enough() -> bool:
    try:
        import setuptools
    except ImportError:
        return False
    return int(setuptools.__version__.split(".")[0]) >= 77


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not _setuptools_recent_enough():
        pytest.skip("building the wheel without network needs setuptools >= 77 in this environment")
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=IGNORED)
        else:
            shutil.copy2(path, source / name)
    dist = tmp_path_factory.mktemp("dist")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                            "--quiet", "-w", str(dist), str(source)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    (found,) = dist.glob("kamishibai_studio-*.whl")
    return found


@pytest.fixture(scope="module")
def names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet",
                           "--target", str(target), str(wheel)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return target


def _tracked_files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(REPO)) for p in folder.rglob("*")
                  if p.is_file() and not any(part.startswith(".") or part == "__pycache__"
                                             for part in p.relative_to(REPO).parts))


SHIPPED = "studio/_shipped/"


def test_the_wheel_holds_every_resource_inside_the_package(names: set[str]) -> None:
    resources = [SHIPPED + name for name in _tracked_files(REPO / "resources")]
    assert {SHIPPED + "resources/cast.json", SHIPPED + "resources/world.json", SHIPPED + "resources/theme/studio.qss",
            SHIPPED + "resources/samples/first_story.txt", SHIPPED + "resources/icons/play.svg"} <= set(resources)
    assert [name for name in resources if name not in names] == []


def test_the_wheel_holds_every_file_of_the_package(names: set[str]) -> None:
    """Modules and data alike: the packages are listed in pyproject.toml, so a new subpackage
    left out of the list shows here."""
    from tests.installation.test_qa42_wheel_leaves_the_training_configs_to_the_sdist import training_configs

    # but the mini engine's training configs, which the sdist holds for training from a checkout
    files = [name for name in _tracked_files(REPO / "studio") if name not in training_configs()]
    assert {"studio/engines/catalog/sketch_vocabulary.json", "studio/ui/canvas/__init__.py"} <= set(files)
    assert [name for name in files if name not in names] == []


def test_the_wheel_holds_the_mini_weights_its_config_lists(names: set[str]) -> None:
    listed = json.loads((REPO / "checkpoints" / "mini" / "config.json").read_text(encoding="utf-8"))["files"]
    assert {"tokenizer.json", "lm.safetensors", "decoder.safetensors"} <= set(listed)
    wanted = {f"{SHIPPED}checkpoints/mini/{name}" for name in [*listed, "config.json", "README.md"]}
    assert wanted - names == set()


def test_the_wheel_holds_nothing_it_should_not(wheel: Path, names: set[str]) -> None:
    tops = {name.split("/", 1)[0] for name in names if not name.split("/", 1)[0].endswith(".dist-info")}
    assert tops == {"studio"}, "site-packages gets one folder"
    stray = [name for name in names if "__pycache__" in name or name.endswith((".pyc", ".gitkeep"))
             or any(part.startswith(".") for part in name.split("/"))]
    assert stray == []
    checkpoints = SHIPPED + "checkpoints/"
    assert not any(name.startswith(checkpoints) and name.count("/") > 3 and not name.startswith(checkpoints + "mini/")
                   for name in names), "only the mini engine's weights ship"
    assert wheel.stat().st_size < MAX_WHEEL_MB * 1024 * 1024


INSTALLED_CHECK = """
import json, sys
from pathlib import Path
target = Path(sys.argv[1]).resolve()
import studio
from studio.ui.resources import resources_dir
from studio.ui.app_paths import AppPaths
from studio.composition import default_checkpoints
from studio.engines.sketch.defaults import load_default_cast, load_default_world
shipped = target / "studio" / "_shipped"
assert Path(studio.__file__).resolve().is_relative_to(target), studio.__file__
assert resources_dir().resolve() == shipped / "resources", resources_dir()
assert (resources_dir() / "theme" / "studio.qss").is_file()
assert load_default_cast() and load_default_world()
assert default_checkpoints().resolve() == shipped / "checkpoints", default_checkpoints()
dirs = AppPaths.standard().default_checkpoint_dirs()
assert dirs[0] == AppPaths.standard().data_dir / "checkpoints", dirs  # converted weights go there, not in the package
mini = next(folder / "mini" for folder in dirs if (folder / "mini").is_dir())
assert mini.resolve() == shipped / "checkpoints" / "mini", mini
listed = json.loads((mini / "config.json").read_text(encoding="utf-8"))["files"]
for name, entry in listed.items():
    assert (mini / name).stat().st_size == entry["bytes"], name
print("ok")
"""


def _run_installed(target: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Python with only the installed copy of studio on its path (the checkout is not: the
    current folder is elsewhere, and an editable install's finder comes after PYTHONPATH)."""
    home = cwd / "home"
    env = {**os.environ, "PYTHONPATH": str(target), "QT_QPA_PLATFORM": "offscreen", "HOME": str(home),
           "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data"),
           "XDG_CACHE_HOME": str(home / "cache")}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_installed_copy_finds_its_resources_and_the_mini_weights(installed: Path, tmp_path: Path) -> None:
    done = _run_installed(installed, tmp_path, "-c", INSTALLED_CHECK, str(installed))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "ok"


def test_the_installed_copy_builds_the_sample(installed: Path, tmp_path: Path) -> None:
    done = _run_installed(installed, tmp_path, "-m", "studio", "sample", str(tmp_path / "s.kamishibai"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "s.kamishibai" / "project.db").is_file()
    assert "0 failed" in done.stdout + done.stderr
