"""The decoder's step folder that the release's ``latest`` file names, checked before it is
used (without torch: the doctor reports it too).

SAT saves ``VDM_Decoder-<Char>/latest`` holding the name of the step folder beside it
(``1000``). A ``latest`` that can't be read as text stopped the conversion with an internal
error, and one naming ``../VDM_Decoder-Sosuke/1000`` converted Sosuke's decoder as Qiqi's
without a word: a step is a folder name beside ``latest``, nothing else.
"""

from __future__ import annotations

from pathlib import Path

from studio.engines.catalog import animegamer_layout as layout

LATEST_HINT = ("Write the step folder's name into it (the folder beside it that holds {file}, e.g. 1000), or delete "
               "it to use the highest-numbered step folder.")


def latest_problem(source: Path, character: str) -> tuple[Path, str] | None:
    """``(latest, what is wrong with it)`` when the character's ``latest`` file is there and
    does not name a step folder beside it by a plain name; ``None`` otherwise."""
    latest = source / layout.RELEASE_DECODER_DIR.format(name=layout.DISPLAY[character]) / "latest"
    if not latest.is_file():
        return None
    try:
        step = latest.read_text(encoding="utf-8").strip()
    except UnicodeDecodeError:
        return latest, f"{latest} is not text (it should hold the name of a step folder beside it)"
    except OSError as error:
        return latest, f"{latest} can't be read: {error.strerror or type(error).__name__}"
    if not step:  # as one naming a step that is not there: the highest-numbered step is used
        return None
    if step in (".", "..") or "/" in step or "\\" in step or not step.isprintable() or Path(step).name != step:
        return latest, f"{latest} names {step!r}, which is not a step folder beside it"
    return None


def latest_hint() -> str:
    return LATEST_HINT.format(file=layout.DEEPSPEED_FILE)
