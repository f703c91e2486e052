"""The typing of new turns left unfinished, kept in the settings file between runs, by
project: a new turn is no turn of the story (nothing in the project holds it), yet what was
typed in it must survive closing the window; the next time the project opens, Enter on the
turn it was to follow picks it up."""

from __future__ import annotations

import json
import logging
from pathlib import Path

from PySide6.QtCore import QSettings

log = logging.getLogger(__name__)

DRAFTS_KEY = "projects/drafts_put_aside"
"""Where the typing of new turns left unfinished is kept between runs, by project."""
MAX_DRAFT_PROJECTS = 50
"""Projects whose unfinished new turns are kept (the most recently closed ones)."""


def project_key(path: Path) -> str:
    """A project's folder as drafts are stored under it: absolute, links resolved."""
    try:
        return str(path.expanduser().resolve())
    except (OSError, ValueError, RuntimeError):
        return str(path)


def _stored_drafts(q: QSettings) -> list[tuple[str, dict[str, str]]]:
    """(project key, {turn id: typing}) as stored, most recently closed first; a value edited
    into something else by hand reads as nothing kept (it is replaced at the next close)."""
    raw = q.value(DRAFTS_KEY, "")
    try:
        value = json.loads(str(raw)) if raw else []
    except ValueError:
        log.warning("unreadable %s in the settings file: no unfinished new turns are brought back", DRAFTS_KEY)
        return []
    if not isinstance(value, list):
        return []
    return [(item[0], {k: v for k, v in item[1].items() if isinstance(k, str) and isinstance(v, str) and v.strip()})
            for item in value
            if isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and isinstance(item[1], dict)]


def load_drafts(q: QSettings, project: Path) -> dict[str, str]:
    """The typing of new turns put aside in ``project`` when it was last closed, by the turn
    each was to follow."""
    key = project_key(project)
    return next((dict(drafts) for stored, drafts in _stored_drafts(q) if stored == key), {})


def save_drafts(q: QSettings, project: Path, drafts: dict[str, str]) -> None:
    """Keep ``drafts`` (turn id: typing) for ``project`` until it opens again; an empty one
    forgets the project's. Only the :data:`MAX_DRAFT_PROJECTS` latest projects are kept."""
    key = project_key(project)
    stored = _stored_drafts(q)
    others = [(project_at, kept) for project_at, kept in stored if project_at != key]
    if not drafts and len(others) == len(stored):
        return  # nothing kept, nor to forget: the settings file is left as it is
    entries = ([(key, drafts)] if drafts else []) + others
    q.setValue(DRAFTS_KEY, json.dumps([list(entry) for entry in entries[:MAX_DRAFT_PROJECTS]]))
    q.sync()
    if q.status() is not QSettings.Status.NoError:
        log.warning("could not write the settings file: the unfinished new turns of %s are not kept", project)
