"""``--checkpoints``' help and the README say the folders in the order they are searched.

They said "beside the app, then the data folder" everywhere, while a copy installed with pip
looks in the data folder first (where ``checkpoints convert`` writes the big engines' weights;
the package's own folder holds only the shipped mini). The order is kept, and said.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_cli_help_texts import _subparsers  # tests/ is on sys.path

import studio.shipped as shipped_module
from studio.cli import build_parser
from studio.ui.app_paths import AppPaths

README = Path(__file__).resolve().parents[2] / "README.md"


def _said(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("installed", [False, True])
def test_the_help_names_the_first_folder_searched(private_user_folders: Path, monkeypatch: pytest.MonkeyPatch,
                                                  installed: bool) -> None:
    paths = AppPaths.standard()
    monkeypatch.setattr(shipped_module, "is_installed", lambda: installed)
    first, second = paths.default_checkpoint_dirs()
    data_first = first == paths.data_dir / "checkpoints"
    assert data_first == installed and second != first
    for name in ("play", "doctor", "fill", "run-queue", "import-demo"):
        option = next(a for a in _subparsers(build_parser())[name]._actions if a.dest == "checkpoints")
        text = _said(option.help or "")
        assert "checkpoints/ beside the app, then checkpoints/ in the data folder" in text, name
        assert "in a copy installed with pip, the data folder's first" in text, name
    readme = _said(README.read_text(encoding="utf-8"))
    assert "in a studio installed with pip, `checkpoints/` in the data folder first" in readme
