"""A job the studio stopped as it closed (the window closed, its project closed, the job not
cancelled) was recorded as "The studio stopped while this job was running.", the words for a
crash. A close is now told apart: the record says the job was stopped when the studio closed,
not by a crash, and how to make it again; a job left running by a process that is gone still
reads as a crash. The real worker, project database and `kamishibai queue` are used."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from studio.core.model import Location
from studio.storage import Project
from studio.storage.job_store import INTERRUPTED_MESSAGE
from studio.worker import GenerationService, HostMode, JobStatus

from .fake_engine import FakeScript, fake_registry


def _queue(project: Path) -> list[dict[str, object]]:
    shown = subprocess.run([sys.executable, "-m", "studio", "queue", str(project), "--all", "--json"],
                           capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert shown.returncode == 0, shown.stderr
    listed = json.loads(shown.stdout)
    jobs: list[dict[str, object]] = listed["jobs"] if isinstance(listed, dict) else listed
    return jobs


def test_a_job_stopped_as_the_studio_closes_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "story.kamishibai"
    script = FakeScript()
    project = Project.create(folder, locations=[Location(id="loc1", name="Town")])
    service = GenerationService(project, fake_registry(script, "fake"), default_engine="fake",
                                hosts=HostMode.IN_PROCESS)
    try:
        _turn, job_id = service.generate(project.tree.root_id, "Qiqi runs [block]")
        service.start()
        assert script.started.wait(60), "the job never started"
        # what closing the window with the job kept does: pause, then stop the running job
        service.pause()
        assert service.stop(interrupt_running=True, timeout=30)
        (stopped,) = [job for job in service.jobs(include_finished=True) if job.id == job_id]
    finally:
        script.release.set()
        service.stop(cancel_running=True, timeout=10)
        project.close()

    assert stopped.status is JobStatus.INTERRUPTED
    (listed,) = [job for job in _queue(folder) if job["id"] == job_id]
    assert listed["status"] == "interrupted"
    for said in (stopped.error, str(listed["error"])):
        assert said != INTERRUPTED_MESSAGE and "stopped while this job was running" not in said, said
        assert said.startswith("Stopped when the studio closed"), said
        assert "not a crash" in said and "re-roll" in said, said
