"""User preferences kept with QSettings: the engine and its settings, devices and CPU
threads, queue behaviour, recent projects, appearance, where model weights are.

Everything goes through :class:`StudioSettings`, which wraps one QSettings object, so
tests can hand the window an ini file in a temporary folder instead of the user's. The
user's file is ``settings.ini`` in the config folder of :class:`AppPaths`; settings kept by
earlier versions in Qt's default place are copied over once.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings

from studio.core.errors import StudioError
from studio.core.jobs import SEED_LIMIT, check_seed
from studio.engines.config import ConfigError, EngineConfig, check_threads
from studio.engines.settings import EngineSettings
from studio.ui.app_paths import APPLICATION, ORGANIZATION, AppPaths
from studio.ui.window_layout import ChosenWidth

PROJECT_DB = "project.db"
MAX_RECENT = 8
MAX_PLACES = 50
"""Projects whose last selected turn, and whose folds, are remembered (the most recently closed ones)."""
APPEARANCES = ("system", "light", "dark")
LARGEST_WINDOW = 15360
"""A saved window width above this (two 8K screens side by side) is taken for a damaged setting."""
AUTOMATIC_THREADS = "auto"
"""How the CPU threads setting is stored while it is automatic (an empty value reads the same)."""


def usable_engine_values(settings_type: type[EngineSettings],
                         values: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """(the saved ``values`` the engine accepts, why each other one was refused).

    One value that can't be used (edited by hand, or a choice another version named
    differently) drops alone: the user's other changes still hold, in Settings and in the
    takes made meanwhile alike. Names the engine doesn't know (an older version's) go quietly."""
    known = {spec.name for spec in settings_type.schema()} | {"preset"}
    kept: dict[str, Any] = {}
    problems: list[str] = []
    for name, value in values.items():
        if name not in known:
            continue
        try:
            settings_type.from_values({**kept, name: value})
        except StudioError as error:
            problems.append(error.message)
        else:
            kept[name] = value
    return kept, problems


def foreign_engine_values(settings_type: type[EngineSettings], values: Mapping[str, Any]) -> dict[str, Any]:
    """The saved ``values`` whose names this version's engine doesn't know: a newer (or older)
    version's settings, kept when Settings writes the engine's values again, so that going
    back to that version finds them."""
    known = {spec.name for spec in settings_type.schema()} | {"preset"}
    return {name: value for name, value in values.items() if name not in known}


def _foreign_lines(text: str) -> list[str]:
    """The lines of an ini file that are none of what an ini file holds (a section, a
    ``key=value`` pair, a comment, a blank line): a file written by something else, or
    damaged. Qt skips such lines without a word, and drops them when it next writes."""
    lines = (line.strip() for line in text.splitlines())
    return [line for line in lines
            if line and line[0] not in ";#" and "=" not in line and not (line[0] == "[" and line[-1] == "]")]


def settings_file_problem(q: QSettings) -> str:
    """Why the settings file behind ``q`` could not be read in full (empty: it could). A
    damaged file is copied aside first (``settings.ini.damaged-DATE``), before the first
    change makes Qt write it again with only what it could read."""
    if q.format() != QSettings.Format.IniFormat:
        return ""
    path = Path(q.fileName())
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return ""
    except IsADirectoryError:
        return (f"The settings file {path} can't be read (it is a folder): every setting uses its default, and "
                "changes made now are not kept after the studio closes. Move or rename that folder (what is "
                "in it is not used) so that the studio can keep its settings again.")
    except OSError as error:
        return (f"The settings file {path} can't be read ({error.strerror or error}): every setting uses its "
                "default this time. Give yourself permission to read and write that file so that your settings "
                "are used again.")
    try:
        damaged = q.status() == QSettings.Status.FormatError or bool(_foreign_lines(data.decode("utf-8")))
    except UnicodeDecodeError:
        damaged = True
    if not damaged:
        return ""
    kept = _keep_damaged_copy(path, data)
    return (f"The settings file {path} was damaged or written by another program {kept}: the settings it "
            "could not read use their defaults; the others are kept.")


def _keep_damaged_copy(path: Path, data: bytes) -> str:
    """Copy a damaged settings file aside (once: a copy with the same bytes is not made
    again); says where, in parentheses, for the message."""
    for earlier in path.parent.glob(f"{path.name}.damaged-*"):
        try:
            if earlier.read_bytes() == data:
                return f"(a copy of it is kept as {earlier.name})"
        except OSError:
            continue
    copy = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    try:
        shutil.copyfile(path, copy)
    except OSError as error:
        return f"(a copy could not be kept: {error.strerror or error})"
    return f"(a copy of it is kept as {copy.name})"


def _bool(value: Any, default: bool) -> bool:
    if value is None:
        return default
    if isinstance(value, str):
        return value.lower() in ("1", "true", "yes")
    return bool(value)


def _standard_qsettings(paths: AppPaths) -> QSettings:
    """``settings.ini`` in the config folder; on its first use, what an earlier version kept
    in Qt's default place (``~/.config/Kamishibai/Kamishibai Studio.conf``) is copied in."""
    fresh = not paths.settings_file.exists()
    q = QSettings(str(paths.settings_file), QSettings.Format.IniFormat)
    if fresh:
        old = QSettings(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION)
        if old.fileName() != q.fileName():
            for key in old.allKeys():
                q.setValue(key, old.value(key))
            q.sync()
    return q


def _recent_key(path: str) -> str:
    """A recent project's path as stored: absolute, ``~`` and links resolved (a name no
    system call takes, edited into the file by hand, is kept as written)."""
    try:
        return str(Path(path).expanduser().resolve())
    except (OSError, ValueError, RuntimeError):
        return path


def is_project_folder(path: Path) -> bool:
    """Whether ``path`` holds a project's database; False, rather than an exception, for a
    place that can't be looked at: a folder this user may no longer enter, a network mount
    that went away, a name too long or with a NUL in it."""
    try:
        return (path / PROJECT_DB).is_file()
    except (OSError, ValueError):
        return False


def check_device_list(text: str) -> str:
    """``text`` if it names one worker per comma-separated entry, each a placement the engines
    can read (a worker's stages parted by ``;``: ``predict=cuda:0;decode=cuda:1,cpu``), as the
    command line's ``--devices`` is checked; empty: one worker, on the device setting. Raises
    :class:`~studio.engines.config.ConfigError` naming the entry that can't be used."""
    if not text.strip():
        return ""
    workers = [item.strip() for item in text.split(",")]
    if not all(workers):
        raise ConfigError(f"An empty entry in the device list {text!r}.",
                          hint="Separate devices with one comma each, e.g. cpu,cpu or cuda:0,cuda:1.")
    for worker in workers:
        EngineConfig.parse(worker, separator=";")
    return text.strip()


class StudioSettings:
    def __init__(self, qsettings: QSettings | None = None, paths: AppPaths | None = None) -> None:
        self.paths = paths or AppPaths.standard()
        self.q = qsettings or _standard_qsettings(self.paths)
        self.file_problem = settings_file_problem(self.q)
        """Why the settings file could not be read in full, as found when it was opened
        (empty: it could)."""

    @classmethod
    def at(cls, path: Path, paths: AppPaths | None = None) -> StudioSettings:
        """Settings in an ini file (tests, portable installs)."""
        return cls(QSettings(str(path), QSettings.Format.IniFormat), paths)

    def write_problem(self) -> str:
        """Write what was set to the settings file; why that failed (empty: it didn't).

        QSettings never raises: a config folder that can't be written (a read-only home, a
        file where the folder should be) would otherwise lose every change without a word."""
        self.q.sync()
        # only an AccessError loses the changes: a FormatError (a line of the file Qt could not
        # read) still writes the file, with what was readable and the new values
        if self.q.status() != QSettings.Status.AccessError:
            return ""
        return f"The settings could not be saved to {self.q.fileName()}: the file or its folder can't be written."

    def write_access_problem(self) -> str:
        """Why changes can't be written to the settings file (empty: they can, as far as
        can be told before writing): a read-only file, or a folder this user can't write in
        where the file is still to be made. Said when the window opens and in Settings, before
        the user changes anything, as Qt only reports it when a write fails."""
        if self.q.format() != QSettings.Format.IniFormat:
            return ""
        path = Path(self.q.fileName())
        try:
            if path.is_dir():
                return ""  # said by :attr:`file_problem`
            if path.exists():
                if os.access(path, os.W_OK):
                    return ""
                return (f"The settings file {path} can't be written (it is read-only): what you change "
                        "(Settings, the recent projects) holds until the studio closes, and is not kept. Make "
                        "that file writable to keep your changes.")
            folder = next((p for p in path.parents if p.exists()), path.parent)
            if folder.is_dir() and os.access(folder, os.W_OK | os.X_OK):
                return ""
        except OSError:
            folder = path.parent
        return (f"The settings file {path} can't be written: its folder {folder} can't be written in (or is not "
                "a folder), so what you change (Settings, the recent projects) holds until the studio closes, "
                "and is not kept. Make that folder writable (or, on Linux, set XDG_CONFIG_HOME to a folder you "
                "can write in) to keep your changes.")

    def file_unusable(self) -> bool:
        """Whether the settings file is there but could not be read at all (a folder, or no
        permission to read it): every setting reads as its default, none of the user's."""
        if self.q.format() != QSettings.Format.IniFormat:
            return False
        path = Path(self.q.fileName())
        try:
            return path.is_dir() or (path.exists() and not os.access(path, os.R_OK))
        except OSError:
            return True

    # -- generation -----------------------------------------------------------------------

    def engine_values(self, engine: str) -> dict[str, Any]:
        """The settings the user changed for ``engine`` (its own defaults hold for the rest).
        Stored values that can't be read at all read as none; :meth:`engine_values_problem`
        says why."""
        return self._stored_engine_values(engine)[0]

    def engine_values_problem(self, engine: str) -> str:
        """Why the stored values of ``engine`` could not be read (empty: they could)."""
        return self._stored_engine_values(engine)[1]

    def _stored_engine_values(self, engine: str) -> tuple[dict[str, Any], str]:
        raw = self.q.value(f"engines/{engine}/values", "")
        if raw is None or raw == "":
            return {}, ""
        try:
            values = json.loads(str(raw))
        except ValueError:
            values = None
        if not isinstance(values, dict):
            return {}, (f"The saved {engine} settings could not be read (they are not a list of name = value "
                        "pairs): the engine's defaults are used.")
        return dict(values), ""

    def set_engine_values(self, engine: str, values: Mapping[str, Any]) -> None:
        self.q.setValue(f"engines/{engine}/values", json.dumps(dict(values), sort_keys=True))
        self.q.sync()

    @property
    def engine(self) -> str:
        return str(self.q.value("engine/name", "") or "")

    @engine.setter
    def engine(self, name: str) -> None:
        self.q.setValue("engine/name", name)

    @property
    def device(self) -> str:
        """Where engines run (``cpu``, ``cuda:N``, per stage...). A stored value that can't be
        read (edited by hand, or written by another version) reads as ``cpu``, rather than
        stop the window from opening; :meth:`device_problem` says why."""
        return self._stored_device()[0]

    @device.setter
    def device(self, name: str) -> None:
        self.q.setValue("engine/device", name)

    def device_problem(self) -> str:
        """Why the stored device was refused (empty: it wasn't)."""
        return self._stored_device()[1]

    def _stored_device(self) -> tuple[str, str]:
        """(the device to use, why the stored value was refused)."""
        raw = str(self.q.value("engine/device", "cpu") or "").strip() or "cpu"
        try:
            EngineConfig.parse(raw)
        except StudioError as error:
            return "cpu", f"{error.message} {error.hint}".strip()
        return raw, ""

    @property
    def devices(self) -> str:
        """One worker per device, comma-separated (``cpu,cuda:0``); empty: one, on :attr:`device`.
        A stored list that can't be read reads as empty (generation goes on, on :attr:`device`,
        rather than stop); :meth:`devices_problem` says why."""
        return self._stored_devices()[0]

    @devices.setter
    def devices(self, names: str) -> None:
        self.q.setValue("engine/devices", names)

    def devices_problem(self) -> str:
        """Why the stored device list was refused (empty: it wasn't)."""
        return self._stored_devices()[1]

    def _stored_devices(self) -> tuple[str, str]:
        raw = str(self.q.value("engine/devices", "") or "").strip()
        try:
            return check_device_list(raw), ""
        except StudioError as error:
            return "", f"{error.message} {error.hint}".strip()

    @property
    def cluster(self) -> str:
        """Where engines run instead of :attr:`devices`: ``local``, ``auto`` or a Ray
        cluster's address; empty: not on a cluster."""
        return str(self.q.value("engine/cluster", "") or "")

    @cluster.setter
    def cluster(self, address: str) -> None:
        self.q.setValue("engine/cluster", address)

    @property
    def cluster_actors(self) -> int | None:
        """Engine actors on the cluster (None: one per GPU)."""
        try:
            value = int(str(self.q.value("engine/cluster_actors", "") or 0))
        except ValueError:
            return None
        return value if value > 0 else None

    @cluster_actors.setter
    def cluster_actors(self, count: int | None) -> None:
        self.q.setValue("engine/cluster_actors", str(count or ""))

    @property
    def cpu_threads(self) -> int | None:
        """CPU threads of each engine process on this computer (None: automatic, all cores
        but one, shared out when several devices run at once). A stored value that can't be
        used here reads as None; :meth:`cpu_threads_problem` says why."""
        return self._stored_cpu_threads()[0]

    @cpu_threads.setter
    def cpu_threads(self, threads: int | None) -> None:
        """Raises :class:`~studio.engines.config.ConfigError` for a count this computer can't run."""
        self.q.setValue("engine/cpu_threads", AUTOMATIC_THREADS if threads is None else str(check_threads(threads)))
        self.q.sync()

    def cpu_threads_problem(self) -> str:
        """Why the stored CPU threads value was refused (empty: it wasn't)."""
        return self._stored_cpu_threads()[1]

    def _stored_cpu_threads(self) -> tuple[int | None, str]:
        """(the CPU threads to use, why the stored value was refused): a file without the
        value, or with one that is not a usable count (edited by hand, or written on a
        computer with more cores), means automatic."""
        raw = str(self.q.value("engine/cpu_threads", "") or "").strip()
        if raw.lower() in ("", AUTOMATIC_THREADS):
            return None, ""
        try:
            return check_threads(int(raw)), ""
        except ValueError:
            return None, f"CPU threads must be a whole number or {AUTOMATIC_THREADS}, not {raw!r}."
        except StudioError as error:
            return None, error.message

    @property
    def auto_requeue(self) -> bool:
        return _bool(self.q.value("queue/auto_requeue"), False)

    @auto_requeue.setter
    def auto_requeue(self, on: bool) -> None:
        self.q.setValue("queue/auto_requeue", on)

    @property
    def reroll_selects(self) -> bool:
        """Whether re-rolling a turn with later turns switches to the new take (default: no)."""
        return _bool(self.q.value("takes/reroll_selects"), False)

    @reroll_selects.setter
    def reroll_selects(self, on: bool) -> None:
        self.q.setValue("takes/reroll_selects", on)

    @property
    def locked_seed(self) -> int | None:
        """A seed every new take uses while it is locked (None: a new seed each time). A stored
        seed no engine takes (not a number, or out of range) reads as None, rather than refuse
        every re-roll; :meth:`locked_seed_problem` says why."""
        return self._stored_locked_seed()[0]

    @locked_seed.setter
    def locked_seed(self, seed: int | None) -> None:
        self.q.setValue("takes/locked_seed", "" if seed is None else str(int(seed)))

    def locked_seed_problem(self) -> str:
        """Why the stored locked seed was refused (empty: it wasn't)."""
        return self._stored_locked_seed()[1]

    def _stored_locked_seed(self) -> tuple[int | None, str]:
        raw = str(self.q.value("takes/locked_seed", "") or "").strip()
        if not raw:
            return None, ""
        shown = raw if len(raw) <= 40 else f"{raw[:37]}..."
        try:
            seed = int(raw)
            check_seed(seed)
        except (ValueError, StudioError):  # not a number (or 4,300 digits and more), or out of range
            return None, (f"The locked seed {shown} can't be used: a seed is a whole number from 0 to "
                          f"{SEED_LIMIT - 1}. The seed was unlocked.")
        return seed, ""

    # -- model weights ---------------------------------------------------------------------

    @property
    def checkpoints_folder(self) -> str:
        """The folder the user chose for model weights; empty: the defaults."""
        return str(self.q.value("weights/checkpoints", "") or "")

    @checkpoints_folder.setter
    def checkpoints_folder(self, folder: str) -> None:
        self.q.setValue("weights/checkpoints", folder.strip())
        self.q.sync()

    def checkpoint_dirs(self) -> list[Path]:
        """Where engines look for weights, in order: the chosen folder, then the app's own
        checkpoints folder for an engine the chosen one has no folder for (the shipped mini);
        or, none chosen, ``checkpoints/`` beside the app, then ``checkpoints/`` in the data folder."""
        chosen = self.checkpoints_folder
        if not chosen:
            return self.paths.default_checkpoint_dirs()
        from studio.engines.checkpoints_folder import with_the_app_weights

        return with_the_app_weights(Path(chosen).expanduser())

    @property
    def use_hf_cache(self) -> bool:
        """Whether Hugging Face-format weights are also looked for in the Hugging Face cache."""
        return _bool(self.q.value("weights/huggingface_cache"), True)

    @use_hf_cache.setter
    def use_hf_cache(self, on: bool) -> None:
        self.q.setValue("weights/huggingface_cache", on)
        self.q.sync()

    # -- appearance --------------------------------------------------------------------------

    @property
    def appearance(self) -> str:
        """``system`` (follow the desktop's light or dark setting), ``light`` or ``dark``."""
        value = str(self.q.value("appearance/scheme", "system") or "system")
        return value if value in APPEARANCES else "system"

    @appearance.setter
    def appearance(self, value: str) -> None:
        if value not in APPEARANCES:
            raise ValueError(f"appearance must be one of {', '.join(APPEARANCES)}, not {value!r}")
        self.q.setValue("appearance/scheme", value)
        self.q.sync()

    def appearance_problem(self) -> str:
        """Why the stored appearance was refused (empty: it wasn't)."""
        value = str(self.q.value("appearance/scheme", "system") or "system")
        if value in APPEARANCES:
            return ""
        return (f"The appearance must be one of {', '.join(APPEARANCES)}, not {value[:40]!r}: the system's is "
                "followed.")

    # -- projects --------------------------------------------------------------------------

    @property
    def recent_projects(self) -> list[str]:
        value = self.q.value("projects/recent", [])
        if isinstance(value, str):
            return [value] if value else []
        return [str(v) for v in value] if isinstance(value, (list, tuple)) else []

    def present_projects(self) -> list[Path]:
        """The recent projects that are still there, most recent first (what the welcome
        page, File › Open recent and the start offer), each once: entries written by hand or by
        an earlier version may name one folder in several spellings (a trailing slash, ``..``,
        a link to it)."""
        present: dict[str, Path] = {}
        for entry in self.recent_projects:
            if entry and is_project_folder(Path(entry)):
                present.setdefault(_recent_key(entry), Path(entry))
        return list(present.values())

    def add_recent(self, path: Path) -> None:
        """Put ``path`` first, once: stored absolute and resolved, so that the same project
        opened as ``s.kamishibai``, ``./s`` or through ``..`` is one entry, valid from any
        working folder."""
        entry = _recent_key(str(path))
        self.reload()
        items = [entry, *(p for p in self.recent_projects if _recent_key(p) != entry)]
        self.q.setValue("projects/recent", list(dict.fromkeys(items))[:MAX_RECENT])
        self.q.sync()

    def reload(self) -> None:
        """Read again what another studio window (another process) wrote to the file since
        this one last did (and write what this one changed): before a list is changed and
        written whole, the recent projects and the remembered turns of both windows are kept,
        not only the last writer's; before Settings shows the values it will write back."""
        self.q.sync()

    def remove_recent(self, path: Path) -> None:
        gone = _recent_key(str(path))
        self.reload()
        self.q.setValue("projects/recent", [p for p in self.recent_projects if _recent_key(p) != gone])
        self.q.sync()

    def _pairs(self, key: str) -> list[list[Any]]:
        """The [project, value] pairs stored as a JSON list under ``key``, with a project path
        as :func:`_recent_key` writes it first; a damaged or hand-edited value reads as none."""
        raw = self.q.value(key, "")
        try:
            value = json.loads(str(raw)) if raw else []
        except ValueError:
            return []
        if not isinstance(value, list):
            return []
        return [item for item in value if isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)]

    def _places(self) -> list[tuple[str, str]]:
        """(project path as :func:`_recent_key` writes it, node id), most recent first."""
        return [(project, node) for project, node in self._pairs("projects/last_selected") if isinstance(node, str)]

    def last_selected(self, path: Path) -> str | None:
        """The turn selected when the project at ``path`` was last closed (None: not known).

        Kept here rather than in the project: it is where this user was, not part of the
        story, and a project opened read-only (or shared) is not written to for it."""
        key = _recent_key(str(path))
        return next((node for project, node in self._places() if project == key), None)

    def set_last_selected(self, path: Path, node_id: str) -> None:
        """Remember ``node_id`` as the project's selected turn; the :data:`MAX_PLACES` most
        recently closed projects are kept."""
        key = _recent_key(str(path))
        self.reload()
        places = [(key, node_id), *((p, n) for p, n in self._places() if p != key)][:MAX_PLACES]
        self.q.setValue("projects/last_selected", json.dumps([list(place) for place in places]))
        self.q.sync()

    def _fold_places(self) -> list[tuple[str, list[str]]]:
        """(project path as :func:`_recent_key` writes it, its folded turns), most recent first."""
        return [(project, [node for node in nodes if isinstance(node, str)])
                for project, nodes in self._pairs("projects/folds") if isinstance(nodes, list)]

    def folds(self, path: Path) -> list[str]:
        """The turns folded on the canvas when the project at ``path`` was last closed (whose
        following turns were hidden); empty when none were, or it is not known.

        Kept beside the last selected turn, for the same reasons: how this user looks at the
        story is not part of it, and a project opened read-only is not written to."""
        key = _recent_key(str(path))
        return next((nodes for project, nodes in self._fold_places() if project == key), [])

    def set_folds(self, path: Path, node_ids: Iterable[str]) -> None:
        """Remember the project's folded turns (none: the project is forgotten here, leaving
        its place to another); the :data:`MAX_PLACES` most recently closed projects are kept."""
        key = _recent_key(str(path))
        nodes = sorted(set(node_ids))
        self.reload()
        others = [(p, n) for p, n in self._fold_places() if p != key]
        places = ([(key, nodes)] if nodes else []) + others
        self.q.setValue("projects/folds", json.dumps([list(place) for place in places[:MAX_PLACES]]))
        self.q.sync()

    def reset_notes(self) -> list[str]:
        """What of the settings file could not be used and reads as its default, one
        sentence each (empty: everything could): the window says them when it opens.
        Engine settings refused by the engine itself are not here: see
        :func:`usable_engine_values`."""
        notes = [self.file_problem]
        device = self.device_problem()
        notes.append(f"The saved device was refused (the CPU is used): {device}" if device else "")
        devices = self.devices_problem()
        notes.append(f"The saved device list was refused (one worker runs, on the device): {devices}"
                     if devices else "")
        threads = self.cpu_threads_problem()
        notes.append(f"The saved CPU threads were refused (automatic is used): {threads}" if threads else "")
        notes += [self.locked_seed_problem(), self.appearance_problem()]
        notes += [self.engine_values_problem(engine) for engine in self._stored_engines()]
        return [note for note in notes if note]

    def forget_refused(self) -> None:
        """Remove the refused values that no dialog shows again (the locked seed, the
        appearance), so that they are said once; the others stay until Settings replaces them."""
        if self.locked_seed_problem():
            self.q.remove("takes/locked_seed")
        if self.appearance_problem():
            self.q.remove("appearance/scheme")
        self.q.sync()

    def _stored_engines(self) -> list[str]:
        """The engines the settings file holds values for."""
        self.q.beginGroup("engines")
        try:
            return self.q.childGroups()
        finally:
            self.q.endGroup()

    @property
    def first_run_done(self) -> bool:
        return _bool(self.q.value("app/first_run_done"), False)

    def mark_first_run_done(self) -> None:
        self.q.setValue("app/first_run_done", True)
        self.q.sync()

    def geometry(self) -> Any:
        return self.q.value("window/geometry")

    def save_window(self, geometry: Any, state: Any, *, cast_hidden_for_room: bool = False,
                    inspector_width: ChosenWidth | None = None) -> None:
        """The window's geometry and dock layout (Qt's), whether the window itself (not the
        user) had hidden the cast dock for lack of room (reopened wide, it comes back), and the
        inspector's width if the user chose it (None: the window sets it as it is resized)."""
        self.q.setValue("window/geometry", geometry)
        self.q.setValue("window/state", state)
        self.q.setValue("window/cast_hidden_for_room", cast_hidden_for_room)
        if inspector_width is None:
            self.q.remove("window/inspector_width")
            self.q.remove("window/inspector_width_chosen_at")
        else:
            self.q.setValue("window/inspector_width", inspector_width.width)
            self.q.setValue("window/inspector_width_chosen_at", inspector_width.window_width)

    def inspector_width(self) -> ChosenWidth | None:
        """The inspector width the user chose by dragging its splitter, with the window's width
        then (see :meth:`save_window`); None when they did not, or the values can't be widths
        (a file edited by hand)."""
        try:
            width, window_width = (int(str(self.q.value(key)))
                                   for key in ("window/inspector_width", "window/inspector_width_chosen_at"))
        except ValueError:  # (a value not there reads "None")
            return None
        if not (0 < width < window_width <= LARGEST_WINDOW):
            return None
        return ChosenWidth(width, window_width)

    def window_state(self) -> Any:
        return self.q.value("window/state")

    def cast_hidden_for_room(self) -> bool:
        """Whether the saved layout's cast dock is hidden for lack of room (see :meth:`save_window`)."""
        return _bool(self.q.value("window/cast_hidden_for_room"), False)
