"""Every install hint names a command that works: the studio is not published on PyPI, so
``pip install 'kamishibai-studio[engines]'`` (said by doctor, the engines, the cluster
options and docs/CLUSTER.md) found nothing. The hints now name the checkout's commands, and
this test keeps them true: the extras they name exist in pyproject.toml, the Makefile takes
``ENGINES=1``, bootstrap.sh takes ``--cluster``, and torch's CPU index is the one bootstrap.sh uses.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from studio.engines.install_hints import CLUSTER_INSTALL, ENGINES_INSTALL, TORCH_CPU_INDEX, extra_install
from studio.engines.requirements import check_packages
from studio.worker.cluster.spec import INSTALL_HINT

ROOT = Path(__file__).resolve().parents[2]
UNPUBLISHED = re.compile(r"kamishibai-studio\[")


def test_nothing_names_the_unpublished_package() -> None:
    files = [*ROOT.joinpath("studio").rglob("*.py"), ROOT / "README.md", *ROOT.joinpath("docs").rglob("*.md")]
    named = [f"{path.relative_to(ROOT)}:{n}" for path in files
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if UNPUBLISHED.search(line)]
    assert not named, named


def test_the_hints_name_extras_and_options_that_exist() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for hint in (ENGINES_INSTALL, CLUSTER_INSTALL, INSTALL_HINT):
        for named in re.findall(r"pip install '\.\[([a-z,]+)\]'", hint):
            assert set(named.split(",")) <= set(extras), hint
    makefile = (ROOT / "Makefile").read_text()
    assert "make run ENGINES=1" in ENGINES_INSTALL and "$(ENGINES)" in makefile
    bootstrap = (ROOT / "packaging" / "bootstrap.sh").read_text()
    assert "--cluster" in CLUSTER_INSTALL and "--cluster) cluster=1" in bootstrap
    assert f'TORCH_CPU_INDEX:-{TORCH_CPU_INDEX}' in bootstrap and TORCH_CPU_INDEX in ENGINES_INSTALL


def test_a_missing_package_is_told_the_checkout_command() -> None:
    (unmet,) = check_packages(["kamishibai_no_such_package"], engine="test")
    assert unmet.hint == f"Install it {extra_install('engines')}."
    assert "pip install '.[engines]'" in unmet.hint
