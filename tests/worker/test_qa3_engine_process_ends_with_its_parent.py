"""An engine process whose parent (the window or the CLI) is killed outright ends too:
it does not live on holding the engine (and its GPU memory), nor write into a project that
the next run has already tidied. The reopened project shows the job interrupted, ready to
run again, and no take or leftover folder of it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from studio.storage import Project
from studio.worker import GenerationService, HostMode, JobStatus

from .process_engines import registry

TESTS_DIR = Path(__file__).resolve().parents[1]
REPO = TESTS_DIR.parent
GONE_WITHIN_S = 20.0
"""How long the orphaned engine process gets to notice (the stuck engine sleeps 300 s)."""

PARENT = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, sys.argv[2])
    from worker.process_engines import registry
    from studio.storage import Project
    from studio.worker import EventKind, GenerationService, HostMode

    project = Project.open(sys.argv[1])
    service = GenerationService(project, registry(), default_engine="fake", hosts=HostMode.PROCESS)

    def watch(event):
        if event.kind is EventKind.PROGRESS and event.stage == "predict":
            print("ENGINE", service.engine_pids()[0], flush=True)

    service.subscribe(watch)
    service.start()
    time.sleep(120)
""")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (not reaped yet) is gone for our purpose
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return False


def _wait_gone(pid: int) -> bool:
    deadline = time.monotonic() + GONE_WITHIN_S
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.1)
    return not _alive(pid)


def test_engine_process_ends_when_its_parent_is_killed(tmp_path: Path) -> None:
    project = Project.create(tmp_path / "story")
    service = GenerationService(project, registry(), default_engine="fake", hosts=HostMode.PROCESS)
    node, victim = service.generate(project.tree.root_id, "[stuck]", seed=5)
    project.close()

    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(tmp_path / "story"), str(TESTS_DIR)],
                              stdout=subprocess.PIPE, text=True, cwd=REPO)
    engine_pid = 0
    try:
        assert parent.stdout is not None
        for line in parent.stdout:
            if line.startswith("ENGINE "):
                engine_pid = int(line.split()[1])
                break
        assert engine_pid, "the engine process never reached predict"
        os.kill(parent.pid, signal.SIGKILL)
        assert parent.wait(10) == -signal.SIGKILL
        assert _wait_gone(engine_pid), "the engine process lived on after its parent was killed"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        if engine_pid and _alive(engine_pid):
            os.kill(engine_pid, signal.SIGKILL)

    project = Project.open(tmp_path / "story")
    reopened = GenerationService(project, registry(), default_engine="fake", hosts=HostMode.PROCESS)
    try:
        assert reopened.job(victim).status is JobStatus.INTERRUPTED
        assert project.tree.takes_of(node) == []
        takes_dir = project.resolve("media/takes")
        assert not takes_dir.exists() or list(takes_dir.iterdir()) == []
    finally:
        reopened.stop(cancel_running=True, timeout=20)
        project.close()
