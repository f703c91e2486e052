"""A failed take that could not be recorded because the disk had no room is logged as one
plain line that says so, and the job's end that could not be stored either is said to show as
interrupted when the project is opened again (it said "settled from its take", a take that
was never recorded). QA: past a file-size limit the log said "could not record the
failed take ... DiskFullError ... (set KAMISHIBAI_DEBUG=1 to see the traceback)", a
traceback offered for an error the message already explains.

The limit is set in a child process of the test's own, once the job has started: every
write to the database from then on fails as it does under ``ulimit -f``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from studio.storage import Project
from studio.worker import GenerationService, HostMode, JobStatus

from .fake_engine import FakeScript, fake_registry

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
    import json, logging, resource, signal, sys, threading
    from pathlib import Path
    from studio.core.commands import AddTurn
    from studio.storage import Project
    from studio.worker import GenerationService, HostMode, JobEvent
    from tests.worker.fake_engine import FakeScript, fake_registry

    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append({"message": record.getMessage(), "traceback": record.exc_info is not None})

    logging.getLogger("studio").addHandler(Keep(logging.INFO))
    logging.getLogger("studio").setLevel(logging.INFO)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    with Project.create(Path(sys.argv[1]) / "story") as project:
        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run [fail]; Background: day town"))
        turn = project.tree.children(project.tree.root_id)[-1].id
        service = GenerationService(project, fake_registry(FakeScript()), default_engine="fake",
                                    hosts=HostMode.IN_PROCESS)
        ended = threading.Event()

        def listen(event: JobEvent) -> None:
            if event.kind.value == "started":  # from here on the database can't grow
                resource.setrlimit(resource.RLIMIT_FSIZE, (1, hard))
            elif event.job.finished:
                ended.set()

        service.subscribe(listen)
        job = service.reroll(turn)
        service.start()
        assert ended.wait(60)
        service.wait_idle(20)
        resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
        service.stop()
    print(json.dumps({"job": job, "records": records}))
"""


def test_a_failed_take_the_full_disk_kept_out_is_logged_in_one_plain_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(CHILD), str(tmp_path)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout.strip().splitlines()[-1])
    records = said["records"]
    unrecorded = [r for r in records if "could not record the failed take" in r["message"]]
    assert len(unrecorded) == 1, records
    line = unrecorded[0]
    assert not line["traceback"], line
    assert "file-size limit" in line["message"] and "\n" not in line["message"], line
    unstored = [r for r in records if "could not store the end of job" in r["message"]]
    assert len(unstored) == 1, records
    assert "interrupted" in unstored[0]["message"] and "from its take" not in unstored[0]["message"], unstored
    with Project.open(tmp_path / "story.kamishibai") as project:  # as the log line said
        service = GenerationService(project, fake_registry(FakeScript()), default_engine="fake",
                                    hosts=HostMode.IN_PROCESS)
        try:
            assert service.job(said["job"]).status is JobStatus.INTERRUPTED
        finally:
            service.stop()
