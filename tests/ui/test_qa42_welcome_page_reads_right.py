"""The welcome page and doctor say what is so, in plain words.

With no project open the toolbar said "generation unavailable" above a page listing mini and
sketch as able to run; the engines' lines read "12 weights files missing or unreadable; The
AnimeGamer engine …" (a capital after a semicolon).
"""

from __future__ import annotations

from studio.engines.requirements import Requirement, RequirementKind
from studio.ui.engine_status import engine_summary


def test_no_project_open_asks_for_one_not_unavailable(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    assert window.session is None
    picker = window.engine_picker
    picker.refresh_status()
    text = picker.status.text()
    assert "unavailable" not in text, text
    assert text.endswith("open a project to generate"), text


def test_reasons_after_a_semicolon_start_in_lower_case_but_names_keep_theirs() -> None:
    files = [Requirement(RequirementKind.FILE, f"Missing part-{i}.safetensors", path=f"part-{i}") for i in range(12)]
    gpu = Requirement(RequirementKind.DEVICE, "The AnimeGamer engine needs a CUDA GPU.")
    assert engine_summary(False, [*files, gpu]) == (  # the machine's shortfall first
        "The AnimeGamer engine needs a CUDA GPU; 12 weight files missing or unreadable")
    named = Requirement(RequirementKind.MEMORY, "CUDA device cuda:0 has 3.0 GB free.")
    assert engine_summary(False, [named, gpu]) == ("CUDA device cuda:0 has 3.0 GB free; the AnimeGamer engine "
                                                   "needs a CUDA GPU")
    assert engine_summary(False, [gpu, named]).endswith("; CUDA device cuda:0 has 3.0 GB free")
    assert engine_summary(False, [gpu]) == "The AnimeGamer engine needs a CUDA GPU"
