"""packaging/kamishibai.spec, run with stand-ins for PyInstaller's build steps: what it hands
to the analysis (the modules imported by name, the data files) and what it lays beside the
executable (checkpoints/, the desktop entry, the metainfo and the icons).

Built outside an install of the studio (PyInstaller and the dependencies in an environment of
their own), the one-folder app used to answer every subcommand with "invalid choice: 'new'
(choose from )": ``collect_submodules("studio")`` looked on sys.path, where the spec had not put
the checkout, found nothing, and the CLI skips command modules it cannot import. The JSON files
that modules read beside themselves (the sketch engine's vocabulary, the mini engine's configs)
were not in the bundle either, so the instruction field's word list came up empty, nor was
OpenTimelineIO's plugin manifest, so the .otio export failed.

The stand-in for ``collect_submodules`` finds the package as PyInstaller's does: on sys.path
only, not through the editable install's import hook.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.installation.conftest import PACKAGING, REPO

pytestmark = pytest.mark.slow

DRIVER = r'''
import importlib.machinery, importlib.util, json, sys, types
from pathlib import Path

spec_file, dist = Path(sys.argv[1]), Path(sys.argv[2])
recorded = {}


def collect_submodules(package, filter=lambda name: True, on_error="warn once"):
    found = importlib.machinery.PathFinder.find_spec(package, sys.path)
    if found is None or not found.submodule_search_locations:
        return []  # PyInstaller warns and goes on with nothing
    base = Path(list(found.submodule_search_locations)[0])
    names = {package}
    for path in base.rglob("*.py"):
        parts = list(path.relative_to(base).with_suffix("").parts)
        if "__pycache__" in parts:
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.add(".".join([package, *parts]))
    return sorted(name for name in names if filter(name))


def collect_data_files(package, includes=("**/*",)):
    """(file, its folder in the bundle) for the installed package's files matching ``includes``."""
    found = importlib.util.find_spec(package)
    base = Path(list(found.submodule_search_locations)[0])
    top = base.parent
    files = sorted({path for pattern in includes for path in base.glob(pattern) if path.is_file()})
    return [(str(path), str(path.parent.relative_to(top))) for path in files]


hooks = types.ModuleType("PyInstaller.utils.hooks")
hooks.collect_submodules = collect_submodules
hooks.collect_data_files = collect_data_files
sys.modules.update({"PyInstaller": types.ModuleType("PyInstaller"),
                    "PyInstaller.utils": types.ModuleType("PyInstaller.utils"), "PyInstaller.utils.hooks": hooks})


class Analysis:
    def __init__(self, scripts, **options):
        recorded.update(options, scripts=scripts)
        self.pure = self.scripts = self.binaries = self.datas = []


def step(*args, **options):
    return None


(dist / "kamishibai").mkdir(parents=True)  # what COLLECT would have made
spec_globals = {"__name__": "__main__", "__file__": str(spec_file), "SPECPATH": str(spec_file.parent),
                "DISTPATH": str(dist), "Analysis": Analysis, "PYZ": step, "EXE": step, "COLLECT": step}
exec(compile(spec_file.read_text(encoding="utf-8"), str(spec_file), "exec"), spec_globals)
print(json.dumps({key: recorded[key] for key in ("scripts", "datas", "hiddenimports", "excludes")}))
'''


@pytest.fixture(scope="module")
def spec_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, list], Path]:  # type: ignore[type-arg]
    work = tmp_path_factory.mktemp("spec")
    driver = work / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["QT_QPA_PLATFORM"] = "offscreen"
    done = subprocess.run([sys.executable, str(driver), str(PACKAGING / "kamishibai.spec"), str(work / "dist")],
                          cwd=work, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1]), work / "dist" / "kamishibai"


def _bundled(datas: list[list[str]]) -> set[str]:
    """The paths the data entries get in the bundle's ``_internal/`` folder."""
    paths: set[str] = set()
    for source, folder in datas:
        source_path = Path(source)
        if source_path.is_dir():
            paths.update(str(Path(folder) / p.relative_to(source_path)) for p in source_path.rglob("*") if p.is_file())
        else:
            assert source_path.is_file(), f"the spec names {source}, which is not there"
            paths.add(str(Path(folder) / source_path.name))
    return paths


def _package_files(suffix_wanted: bool) -> list[str]:
    return sorted(str(p.relative_to(REPO)) for p in (REPO / "studio").rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and (p.suffix == ".py") == suffix_wanted
                  and p.suffix != ".pyc")


def test_the_subcommand_modules_are_collected_without_an_installed_studio(spec_run) -> None:  # type: ignore[no-untyped-def]
    from studio.cli import _COMMAND_MODULES

    hidden = set(spec_run[0]["hiddenimports"])
    assert {f"studio.cli.{name}" for name in _COMMAND_MODULES} - hidden == set()
    assert {"studio.composition", "studio.engines.sketch", "studio.ui.main_window"} <= hidden
    assert not any(name.startswith("studio.benchmarks") for name in hidden), "the benchmarks read tests/bench"


def test_every_data_file_of_the_package_is_bundled_beside_its_module(spec_run) -> None:  # type: ignore[no-untyped-def]
    from tests.installation.test_qa42_wheel_leaves_the_training_configs_to_the_sdist import training_configs

    bundled = _bundled(spec_run[0]["datas"])
    data_files = _package_files(suffix_wanted=False)
    assert {"studio/engines/catalog/sketch_vocabulary.json", "studio/engines/mini/configs/tiny.json"} <= set(data_files)
    # the mini engine's training configs are left out, as the wheel leaves them out
    assert [name for name in data_files if name not in bundled and name not in training_configs()] == []
    assert [name for name in training_configs() if name in bundled] == []
    assert not any(name.endswith(".py") for name in bundled), "modules go to the archive, not the data"


def test_the_resources_are_where_the_frozen_app_looks_for_them(spec_run) -> None:  # type: ignore[no-untyped-def]
    """studio/shipped.py: a frozen build finds ``resources/`` beside ``studio/`` in ``_internal/``."""
    bundled = _bundled(spec_run[0]["datas"])
    resources = sorted(str(p.relative_to(REPO)) for p in (REPO / "resources").rglob("*") if p.is_file())
    assert "resources/theme/studio.qss" in resources
    assert [name for name in resources if name not in bundled] == []
    assert "torch" in spec_run[0]["excludes"]


def test_opentimelineio_finds_its_writers_in_the_bundle(spec_run) -> None:  # type: ignore[no-untyped-def]
    """The .otio export failed in the built app: "No such file or directory
    (.../_internal/opentimelineio/adapters/builtin_adapters.plugin_manifest.json)"."""
    import opentimelineio

    installed = Path(opentimelineio.__file__).parent / "adapters" / "builtin_adapters.plugin_manifest.json"
    assert installed.is_file()
    assert "opentimelineio/adapters/builtin_adapters.plugin_manifest.json" in _bundled(spec_run[0]["datas"])


def test_the_app_folder_gets_checkpoints_and_the_desktop_files(spec_run, qapp) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage

    app: Path = spec_run[1]
    assert os.readlink(app / "kamishibai-studio") == "kamishibai"
    assert (app / "checkpoints" / "README.md").read_bytes() == (REPO / "checkpoints" / "README.md").read_bytes()
    share = app / "share"
    assert (share / "applications" / "io.kamishibai.Studio.desktop").read_bytes() == \
        (PACKAGING / "io.kamishibai.Studio.desktop").read_bytes()
    assert (share / "metainfo" / "io.kamishibai.Studio.metainfo.xml").read_bytes() == \
        (PACKAGING / "io.kamishibai.Studio.metainfo.xml").read_bytes()
    for size in (16, 22, 24, 32, 48, 64, 128, 256, 512):
        image = QImage(str(share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "io.kamishibai.Studio.png"))
        assert (image.width(), image.height()) == (size, size)
    assert (share / "icons" / "hicolor" / "scalable" / "apps" / "io.kamishibai.Studio.svg").is_file()
