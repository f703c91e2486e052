"""Writing export files without ever leaving a partial one behind.

Everything is written into a hidden work folder inside the destination folder (same file
system, so the final rename is atomic); one left by a killed export is removed by the next
export into the same folder. :meth:`OutputFiles.commit` moves the finished
files to their names; leaving the ``with`` block removes the work folder whatever
happened (error, cancel, KeyboardInterrupt).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from studio.export.errors import ExportError, os_error
from studio.storage.atomic import fsync_dir
from studio.storage.project import enclosing_project
from studio.storage.staging import StagingDir, sweep


def check_destination(out: Path) -> None:
    folder = out.parent
    if not folder.exists():
        raise ExportError(f"The folder {folder} does not exist.", hint="Create it or choose another folder.")
    if not folder.is_dir():
        raise ExportError(f"Can't write {out}: {folder} is not a folder.")
    if out.is_dir():
        raise ExportError(f"Can't write {out}: a folder of that name exists.", hint="Choose another file name.")


def check_outside_project(out: Path, project: Path) -> None:
    """Refuse a destination inside the project folder, or inside any other project
    folder (links followed): an export must never replace a database or a take's clip,
    nor add files a project doesn't know. Other files an export writes (an SRT, further
    sheet pages) go next to ``out``."""
    root = project.resolve()
    landing = out.parent.resolve() / out.name
    for candidate in (landing, landing.resolve()):
        if candidate == root or root in candidate.parents:
            raise ExportError(f"Can't write {out}: it is inside the project folder {project}.",
                              hint="Export to a folder outside the project (exports never write into it).")
    outer = enclosing_project(landing)
    if outer is not None:
        raise ExportError(f"Can't write {out}: it is inside the project folder {outer}.",
                          hint="Export to a folder outside every project (exports never write into one).")


class OutputFiles:
    """``with OutputFiles(out) as files: tmp = files.temp_for(final); ...; files.commit()``."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.work: Path | None = None
        self._staging: StagingDir | None = None
        self._pending: list[tuple[Path, Path]] = []
        self._superseded: list[Path] = []

    def __enter__(self) -> OutputFiles:
        check_destination(self.out)
        # Work folders of exports that were killed (SIGKILL, a power cut) go first.
        sweep(self.out.parent, lambda name: name.startswith(".") and ".export-" in name)
        try:
            self._staging = StagingDir(self.out.parent, f".{self.out.stem[:40]}.export-")
        except OSError as error:
            raise os_error(error, self.out) from None
        self.work = self._staging.path
        return self

    def __exit__(self, *exc: object) -> None:
        if self._staging is not None:
            self._staging.remove()
            self._staging = None
            self.work = None

    def scratch(self, name: str) -> Path:
        """A file in the work folder that is not part of the output (a list, a log)."""
        assert self.work is not None, "use OutputFiles in a with block"
        return self.work / name

    def temp_for(self, final: Path) -> Path:
        """Where to write the file that becomes ``final`` (same name, so encoders see the suffix)."""
        assert self.work is not None, "use OutputFiles in a with block"
        if final.parent.resolve() != self.out.parent.resolve():
            raise ValueError(f"{final} is not in the export folder {self.out.parent}")
        check_destination(final)
        tmp = self.work / f"{len(self._pending):03d}" / final.name
        tmp.parent.mkdir()
        self._pending.append((tmp, final))
        return tmp

    def supersede(self, paths: list[Path]) -> None:
        """Files of an earlier export that :meth:`commit` removes once the new ones are in place
        (a PNG sheet's pages past the new last page); files it writes are left to it."""
        self._superseded += paths

    def commit(self) -> tuple[Path, ...]:
        """Move every finished file to its final name; on failure, none is left half-there."""
        done: list[Path] = []
        try:
            for tmp, final in self._pending:
                if not tmp.is_file():
                    raise ExportError(f"Nothing was written for {final}.")
                with open(tmp, "rb+") as handle:
                    os.fsync(handle.fileno())
            for tmp, final in self._pending:
                os.replace(tmp, final)
                done.append(final)
        except OSError as error:
            for path in done:
                with contextlib.suppress(OSError):
                    path.unlink()
            raise os_error(error, self.out) from None
        except BaseException:
            for path in done:
                with contextlib.suppress(OSError):
                    path.unlink()
            raise
        finals = [final for _, final in self._pending]
        for path in self._superseded:
            if path not in finals:
                with contextlib.suppress(OSError):
                    path.unlink()
        fsync_dir(self.out.parent)
        return tuple(finals)
