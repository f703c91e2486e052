"""`kamishibai export --size` with an odd side for an mp4 or webm: refused before any clip is
read, with the even size to give.

QA typed --size 721x481 and read "mp4 needs an even width and height, not 721x481." with
no hint, and only after every clip of the branch had been probed (seconds on a long branch);
a damaged clip even hid it behind its own error."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import main
from tests.export.helpers import build, video_facts


@pytest.mark.parametrize(("suffix", "size", "even"), [("mp4", "721x481", "720x480"), ("webm", "96x65", "96x64")])
def test_an_odd_size_is_refused_first_with_the_even_size(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         suffix: str, size: str, even: str) -> None:
    fixture = build(tmp_path, turns=2)
    project, leaf = fixture.project.path, fixture.leaf
    clip = fixture.project.resolve(fixture.project.tree.selected_take(fixture.nodes[0]).clip_path)
    fixture.project.close()
    clip.write_bytes(b"not a video any more")  # reading the clips would stop at this one
    out = tmp_path / f"episode.{suffix}"

    assert main(["export", str(project), "--leaf", leaf, "--out", str(out), "--size", size, "-q"]) == 2

    err = capsys.readouterr().err
    assert f"{suffix} needs an even width and height, not {size}." in err
    assert f"--size {even}" in err, "the hint names the even size"
    assert "can't be read" not in err, "refused before the clips were read"
    assert not out.exists()


def test_the_even_size_it_names_exports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fixture = build(tmp_path, turns=2)
    project, leaf = fixture.project.path, fixture.leaf
    fixture.project.close()
    out = tmp_path / "episode.mp4"
    assert main(["export", str(project), "--leaf", leaf, "--out", str(out), "--size", "97x65", "-q"]) == 2
    assert "--size 96x64" in capsys.readouterr().err
    assert main(["export", str(project), "--leaf", leaf, "--out", str(out), "--size", "96x64", "-q"]) == 0
    facts = video_facts(out)
    assert (facts.width, facts.height) == (96, 64)
