"""Generation jobs in the project database (the ``jobs`` table, schema v2; where each runs and
how far it has got, schema v5): the job store.

All of the queue's SQL is here; the worker reads and writes :class:`~studio.core.jobs.Job`
values through :class:`JobStore` and never sees a row or a cursor.

Every state change is written before it counts, so queued work survives a restart and a
crash. A job that was ``running`` in a process that no longer exists is found on the
next start and marked ``interrupted``; its half-written media folder is removed.

Queueing a job waits for the disk. Starting and ending one need not (``durable=False``):
both can be rebuilt from durable rows after a power cut. A start lost: the job is still
queued and runs again. An end lost: :meth:`JobStore.recover` settles the job from its
take row (committed durably, which makes every earlier change durable with it), or
marks it interrupted when it has none.
That saves two disk flushes per generated take.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import socket
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.core.errors import StudioError
from studio.core.jobs import Job, JobKind, JobStatus
from studio.core.model import now_iso
from studio.storage.database import Database
from studio.storage.lock import clean_holder_text, process_label
from studio.storage.paths import UnsafePathError, check_name
from studio.storage.rows import stored_repr

_COLUMNS = (
    "id", "kind", "node_id", "engine", "seed", "settings", "priority", "status", "sequence", "created_at",
    "started_at", "finished_at", "error", "hint", "take_id", "depends_on", "label", "retry_of", "owner",
)

INTERRUPTED_MESSAGE = "The studio stopped while this job was running."
"""A job left running by a process that is gone, when the token does not say which program it
was (written by an earlier version)."""
CLOSED_MESSAGE = ("Stopped when the studio closed (not a crash); "
                  "retry the job or re-roll the turn to make it again.")
"""A running job its own process stopped as it closed (the window closed or its project was
closed, the job not cancelled): told apart from a crash, which :func:`stopped_message` names.
A job kept for next time is queued again at once and never shows it; one that could not be
queued again does."""
COPIED_MESSAGE = ("This project was copied while the job was running in the original; "
                  "it did not run in this copy.")
"""A copy's running job (``cp -a``, a bundle unpacked): its owner runs it in the original."""


def owner_token(project: Path | None = None) -> str:
    """Who runs a job: ``host:pid:started|PROJECT`` then NUL and the program (``kamishibai
    play``, the studio's window: :func:`~studio.storage.lock.process_label`, when it was
    set), used to tell a crashed owner from a live one, the project it runs the job in from
    a copy of it, and to say which program stopped (:func:`stopped_message`).

    ``started`` (:func:`process_start`) tells this process from a later one given the same
    pid once it is gone (after a reboot, pids start over). Where it can't be read (no
    ``/proc``), the process part is ``host:pid``, as earlier versions wrote it.

    ``PROJECT`` (:func:`project_identity` of the project folder, when given) is there because
    a copy of the project (``cp -a``, or a bundle unpacked) holds the same rows: the owner
    that runs a job of the original runs nothing in the copy (see :func:`owner_alive`)."""
    started = process_start(os.getpid())
    process = f"{socket.gethostname()}:{os.getpid()}" + (f":{started}" if started else "")
    identity = project_identity(project) if project is not None else ""
    token = f"{process}{_PROJECT_MARK}{identity}" if identity else process
    program = process_label().replace(_PROGRAM_MARK, " ")
    return f"{token}{_PROGRAM_MARK}{program}" if program else token


_PROJECT_MARK = "|"
"""Parts a job's owner token with a project part: the process's part, the folder's
``device.inode``, the folder's path (which may hold the mark itself: it comes last but for
the program)."""
_PROGRAM_MARK = "\0"
"""Parts the program that runs a job from the rest of its owner token: the one character no
path holds. An earlier version reading the token finds the project by the folder's inode
(the path it reads then ends with the program)."""
MAX_PROGRAM_CHARS = 60
"""The most of a token's program a message shows (the token is read from a file anyone
could write)."""


def _split_program(owner: str) -> tuple[str, str]:
    """``owner`` without its program, and the program ("" for a token of an earlier version)."""
    token, _, program = owner.partition(_PROGRAM_MARK)
    return token, program


def owner_program(owner: str) -> str:
    """The program that ran a job (``kamishibai play``), as its owner token says, cleaned for a
    message; "" when the token does not say."""
    return clean_holder_text(_split_program(owner)[1], MAX_PROGRAM_CHARS)


def stopped_message(program: str) -> str:
    """What an interrupted job's error says when ``program`` (:func:`owner_program`) stopped
    while it ran: a command by its name ("`kamishibai play` stopped while ..."), the window as
    the window; :data:`INTERRUPTED_MESSAGE` when it is not known."""
    if not program:
        return INTERRUPTED_MESSAGE
    said = f"`{program}`" if program.startswith("kamishibai ") else program[:1].upper() + program[1:]
    return f"{said} stopped while this job was running."


def project_identity(folder: Path) -> str:
    """``DEVICE.INODE|REAL PATH`` of a project folder ("" if it can't be read). A copy of the
    folder has another inode and lives at another path; a folder moved (renamed) keeps its
    inode, and one on a file system whose inode numbers are not stable keeps its path."""
    try:
        stat = os.stat(folder)
        real = os.path.realpath(folder)
    except (OSError, ValueError):
        return ""
    return f"{stat.st_dev}.{stat.st_ino}{_PROJECT_MARK}{real}"


def _same_project(recorded: str, folder: Path | None) -> bool:
    """True unless ``recorded`` (a token's project part) names a folder other than
    ``folder``: a token written before the part existed, or a folder that can't be read, is
    taken for the same project (what earlier versions did)."""
    if not recorded or folder is None:
        return True
    here = project_identity(folder)
    if not here:
        return True
    inode, _, path = recorded.partition(_PROJECT_MARK)
    here_inode, _, here_path = here.partition(_PROJECT_MARK)
    return inode == here_inode or path == here_path


@functools.cache
def _boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()[:8]
    except OSError:
        return ""


def process_start(pid: int) -> str:
    """When process ``pid`` started, as ``BOOT-TICKS`` (this boot's id, and its start in
    clock ticks since boot); "" where it can't be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return ""
    boot = _boot_id()
    # fields[0] is the state (field 3 of proc(5)); the start time is field 22
    return f"{boot}-{fields[19]}" if boot and len(fields) > 19 and fields[19].isdigit() else ""


def copied_away(owner: str, project: Path | None) -> bool:
    """Whether ``owner`` ran its job in another folder than ``project``: this is a copy."""
    return not _same_project(_split_program(owner)[0].partition(_PROJECT_MARK)[2], project)


def owner_alive(owner: str, project: Path | None = None) -> bool:
    """True if ``owner`` is another live process on this host (not us, not a zombie, not a
    process that took a dead owner's pid) that runs the job in ``project`` (when given):
    in a copy of the project, a job the original's process runs is run by nobody."""
    owner, _, recorded = _split_program(owner)[0].partition(_PROJECT_MARK)
    if not _same_project(recorded, project):
        return False
    host, _, rest = owner.partition(":")
    pid_text, _, started = rest.partition(":")
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid() or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    if stat.rpartition(")")[2].split()[:1] == ["Z"]:
        return False
    now = process_start(pid)
    return not (started and now and now != started)


def _settings_json(settings: Mapping[str, Any]) -> str:
    try:
        return json.dumps(dict(settings), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError) as error:
        raise StudioError(f"Job settings must be plain values (numbers, text, lists): {error}.") from None


def check_settings(settings: Mapping[str, Any] | None) -> dict[str, Any]:
    """``settings`` as a plain dict, refused now (not when stored) if it can't be saved."""
    plain = dict(settings or {})
    _settings_json(plain)
    return plain


def job_row(job: Job, owner: str = "") -> dict[str, Any]:
    return {
        "id": job.id,
        "kind": job.kind.value,
        "node_id": job.node_id,
        "engine": job.engine,
        "seed": job.seed,
        "settings": _settings_json(job.settings),
        "priority": job.priority,
        "status": job.status.value,
        "sequence": job.sequence,
        "created_at": job.created_at,
        "started_at": job.started_at,
        "finished_at": job.finished_at,
        "error": job.error,
        "hint": job.hint,
        "take_id": job.take_id,
        "depends_on": job.depends_on,
        "label": job.label,
        "retry_of": job.retry_of,
        "owner": owner,
    }


class UnreadableSettings(str):
    """A job row's settings text that is not JSON (written by another program, or damaged):
    kept as it is, so that the job is listed and failed with the reason, not skipped while it
    stays queued in the database."""

    __slots__ = ()


def _settings(text: str | None) -> Any:
    try:
        return json.loads(text or "{}")
    except (ValueError, RecursionError):
        return UnreadableSettings(text or "")


def job_from_row(row: Mapping[str, Any]) -> Job:
    return Job(
        id=row["id"],
        kind=JobKind(row["kind"]),
        node_id=row["node_id"],
        engine=row["engine"],
        seed=int(row["seed"]),
        settings=_settings(row["settings"]),
        priority=int(row["priority"]),
        status=JobStatus(row["status"]),
        sequence=int(row["sequence"]),
        created_at=row["created_at"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        error=row["error"],
        hint=row["hint"],
        take_id=row["take_id"],
        depends_on=row["depends_on"],
        label=row["label"],
        retry_of=row["retry_of"],
    )


def _unreadable_reason(row: Mapping[str, Any], error: BaseException) -> str:
    """Why ``row`` could not be read as a job, in words (the value named as stored)."""
    for column, kind in (("kind", JobKind), ("status", JobStatus)):
        if row[column] not in {member.value for member in kind}:
            return f"its {column} {stored_repr(row[column])} is not one this version of the studio knows"
    return f"it holds a value of the wrong kind ({error})"


def _unsafe_take_id(take_id: object) -> str:
    """Why a job row's take id can't name a media folder ("" when it can, or is empty)."""
    if take_id in (None, ""):
        return ""
    try:
        check_name(take_id, "take id")
    except UnsafePathError as error:
        return f"{error.message} Nothing was removed for it."
    return ""


_PLACE_UPDATES = (
    "runner=CASE WHEN excluded.status='queued' THEN '' ELSE jobs.runner END",
    "progress=CASE WHEN excluded.status='running' THEN jobs.progress ELSE NULL END",
)
"""How a save changes a stored job's place (schema v5), which the job value does not hold: a
job back in the queue runs nowhere; one that stopped running keeps where it ran, and has no
progress."""


@dataclass(frozen=True)
class JobPlace:
    """Where a job runs, or last ran, and how far it has got (see :meth:`JobStore.places`)."""

    runner: str
    """The device (``cpu``, ``cuda:1``) or the render farm's node and actor; "" if not known."""
    progress: float | None = None
    """0..1 while the job runs and its worker has said; None otherwise."""


@dataclass(frozen=True)
class Recovered:
    """What :meth:`JobStore.recover` did: jobs settled from their committed take, and jobs
    now interrupted."""

    settled: tuple[Job, ...]
    interrupted: tuple[Job, ...]
    problems: tuple[str, ...] = ()
    """Jobs whose take id is not a plain name (a crafted or damaged row): nothing was
    removed for them."""


def _no_queue(error: sqlite3.OperationalError) -> StudioError:
    """The project's database has no ``jobs`` table to read (a project of schema 1)."""
    return StudioError(f"This project has no job queue ({error}).",
                       hint="Open it once with this version of the studio to upgrade it.")


class JobStore:
    """Reads and writes the ``jobs`` table of one project database."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.owner = owner_token(database.folder)
        self.unreadable: dict[str, str] = {}
        """The rows the last :meth:`load` could not read and that are not done, by id, each
        with the reason: a job waiting for one of them must not take it for done."""

    def load(self, *, include_finished: bool = True) -> list[Job]:
        """The jobs, oldest first. A row that can't be read (a kind or status this version
        does not know, written by another program or damaged) is left alone in the database
        and listed in :attr:`unreadable` (unless its status says it is done)."""
        sql = "SELECT * FROM jobs"
        if not include_finished:
            sql += " WHERE status NOT IN ('done', 'failed', 'cancelled')"
        try:
            rows = self.database.execute(sql + " ORDER BY sequence").fetchall()
        except sqlite3.OperationalError as error:
            raise _no_queue(error) from None
        jobs = []
        self.unreadable = {}
        for row in rows:
            try:
                jobs.append(job_from_row(row))
            except (ValueError, KeyError, TypeError, RecursionError) as error:
                if row["status"] != JobStatus.DONE.value and isinstance(row["id"], str):
                    self.unreadable[row["id"]] = _unreadable_reason(row, error)
        return jobs

    def abandoned_ids(self) -> set[str]:
        """Jobs marked running by a process that is gone (read-only: what :meth:`recover`
        would make interrupted)."""
        try:
            rows = self.database.execute("SELECT id, owner FROM jobs WHERE status='running'").fetchall()
        except sqlite3.OperationalError as error:
            raise _no_queue(error) from None
        return {row["id"] for row in rows if not owner_alive(row["owner"] or "", self.database.folder)}

    def abandoned(self) -> dict[str, str]:
        """The jobs :meth:`abandoned_ids` names, each with the error :meth:`recover` would give it
        if it has no take (read-only): which program stopped while it ran, or that this is a
        copy of the project the job ran in."""
        try:
            rows = self.database.execute("SELECT id, owner FROM jobs WHERE status='running'").fetchall()
        except sqlite3.OperationalError as error:
            raise _no_queue(error) from None
        return {row["id"]: self._why_stopped(row["owner"] or "") for row in rows
                if not owner_alive(row["owner"] or "", self.database.folder)}

    def _why_stopped(self, owner: str) -> str:
        if copied_away(owner, self.database.folder):
            return COPIED_MESSAGE
        return stopped_message(owner_program(owner))

    def next_sequence(self) -> int:
        row = self.database.execute("SELECT COALESCE(MAX(sequence), 0) FROM jobs").fetchone()
        return int(row[0]) + 1

    def save(self, *jobs: Job, owner: str = "") -> None:
        """Insert or replace ``jobs`` in one transaction."""
        self.save_all(jobs, owner=owner)

    def save_all(self, jobs: Iterable[Job], owner: str = "", *, durable: bool = True) -> None:
        """Insert or replace ``jobs`` in one transaction (see the module's note on
        ``durable``: False only for a job's end, after its take was committed)."""
        rows = [job_row(job, owner) for job in jobs if job.persistent]
        if not rows:
            return
        columns = ", ".join(_COLUMNS)
        marks = ", ".join("?" for _ in _COLUMNS)
        updates = ", ".join([*(f"{c}=excluded.{c}" for c in _COLUMNS if c != "id"), *_PLACE_UPDATES])
        sql = f"INSERT INTO jobs ({columns}) VALUES ({marks}) ON CONFLICT(id) DO UPDATE SET {updates}"
        with self.database.transaction(durable=durable) as conn:
            for row in rows:
                conn.execute(sql, tuple(row[c] for c in _COLUMNS))

    def claim(self, job: Job, runner: str = "") -> bool:
        """Mark a queued job running for this process, on ``runner`` (where it runs: a device
        such as ``cuda:1``, or a render farm's node and actor); False if someone else took it."""
        if not job.persistent:
            return True
        with self.database.transaction(durable=False) as conn:
            cursor = conn.execute(
                "UPDATE jobs SET status='running', owner=?, started_at=?, take_id=?, runner=?, progress=NULL "
                "WHERE id=? AND status='queued'",
                (self.owner, job.started_at, job.take_id, runner, job.id),
            )
            return cursor.rowcount == 1

    def record_progress(self, job_id: str, fraction: float) -> bool:
        """Store how far a job running for this process has got (0..1), for other processes
        to read (:meth:`places`). Not durable: a lost value is only an older one. False if
        the job no longer runs here (it ended meanwhile: its end cleared the value)."""
        value = min(1.0, max(0.0, float(fraction)))
        with self.database.transaction(durable=False) as conn:
            cursor = conn.execute("UPDATE jobs SET progress=? WHERE id=? AND status='running' AND owner=?",
                                  (value, job_id, self.owner))
            return cursor.rowcount == 1

    def places(self) -> dict[str, JobPlace]:
        """Where each job runs (or last ran) and how far a running one has got, by id: only
        the jobs that have either. Empty for a project whose schema predates them (opened for
        reading only, so not upgraded)."""
        try:
            rows = self.database.execute(
                "SELECT id, status, runner, progress FROM jobs WHERE runner != '' OR progress IS NOT NULL").fetchall()
        except sqlite3.OperationalError:  # no such column: a project of schema 4 or before, read as it is
            return {}
        out: dict[str, JobPlace] = {}
        for row in rows:
            if not isinstance(row["id"], str):
                continue
            runner = row["runner"] if isinstance(row["runner"], str) else ""
            progress = row["progress"]
            known = isinstance(progress, (int, float)) and row["status"] == JobStatus.RUNNING.value
            out[row["id"]] = JobPlace(runner, min(1.0, max(0.0, float(progress))) if known else None)
        return out

    def get(self, job_id: str) -> Job | None:
        row = self.database.execute("SELECT * FROM jobs WHERE id=?", (job_id,)).fetchone()
        return job_from_row(row) if row is not None else None

    def recover(self, remove_media: Callable[[str], None] | None = None) -> Recovered:
        """Settle the jobs left ``running`` by a process that is gone, in one transaction.

        Decided from the database alone, never from a tree read earlier: a job whose take
        row exists was finished by its process (which died before saying so) and becomes
        done or failed, with the take's error and hint; any other becomes ``interrupted``,
        and ``remove_media(take_id)`` is called for its half-written folder while the
        transaction still keeps every other writer from committing a row that names it. A
        take id that is not one plain name (``.``, ``..``, a path) would name another
        folder: nothing is removed for it, and the job's error and :attr:`Recovered.problems` say so.
        """
        settled: list[Job] = []
        interrupted: list[Job] = []
        problems: list[str] = []
        with self.database.transaction() as conn:
            rows = conn.execute("SELECT * FROM jobs WHERE status='running'").fetchall()
            for row in rows:
                if owner_alive(row["owner"] or "", self.database.folder):
                    continue
                take = None
                if row["take_id"]:
                    take = conn.execute("SELECT status, error, hint FROM takes WHERE id=?",
                                        (row["take_id"],)).fetchone()
                if take is not None:  # a failed take's hint comes back with its error: what to do about it
                    status = "done" if take["status"] == "done" else "failed"
                    conn.execute("UPDATE jobs SET status=?, owner='', progress=NULL, error=?, hint=?, finished_at=? "
                                 "WHERE id=?",
                                 (status, take["error"] or "", take["hint"] or "", row["finished_at"] or now_iso(),
                                  row["id"]))
                else:
                    unsafe = _unsafe_take_id(row["take_id"])
                    if unsafe:
                        problems.append(f"job {row['id']}: {unsafe}")
                    why = self._why_stopped(row["owner"] or "")
                    conn.execute("UPDATE jobs SET status='interrupted', owner='', progress=NULL, error=? WHERE id=?",
                                 (f"{why} {unsafe}" if unsafe else why, row["id"]))
                    if row["take_id"] and not unsafe and remove_media is not None:
                        remove_media(row["take_id"])
                updated = conn.execute("SELECT * FROM jobs WHERE id=?", (row["id"],)).fetchone()
                with contextlib.suppress(ValueError, KeyError, TypeError, RecursionError):
                    (settled if take is not None else interrupted).append(job_from_row(updated))
        return Recovered(tuple(settled), tuple(interrupted), tuple(problems))

    def delete_finished(self) -> int:
        with self.database.transaction() as conn:
            cursor = conn.execute("DELETE FROM jobs WHERE status IN ('done', 'failed', 'cancelled')")
            return cursor.rowcount
