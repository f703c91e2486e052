"""Which queued jobs wait for an interrupted one (*blocked*) is found with one look at each
job (QA: the window's queue asked it of each job in turn, walking each one's chain up to its
first job: a branch of 3,000 queued turns took 4.5 million steps, seconds at every refresh
of the queue while it ran). The answers are those of a walk from each job in turn (:func:`_walked_from`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from studio.core.commands import AddTurn
from studio.core.jobs import Job, JobKind, JobStatus
from studio.storage import Project
from studio.worker import GenerationService, HostMode
from studio.worker.queue import blocked_jobs

from .fake_engine import FakeScript, fake_registry


def _walked_from(job: Job, jobs: Mapping[str, Job]) -> Job | None:
    """The interrupted job ``job`` waits for, found by walking its own chain up (the way the
    queue was asked before, one job at a time): the reference :func:`blocked_jobs` must match."""
    seen = {job.id}
    current = job
    while current.depends_on and current.depends_on not in seen:
        parent = jobs.get(current.depends_on)
        if parent is None or parent.status not in (JobStatus.QUEUED, JobStatus.INTERRUPTED):
            return None
        if parent.status is JobStatus.INTERRUPTED:
            return parent
        seen.add(parent.id)
        current = parent
    return None


class CountedJobs(Mapping[str, Job]):
    """The jobs by id, counting every look-up of a job."""

    def __init__(self, jobs: dict[str, Job]) -> None:
        self._jobs = jobs
        self.looks = 0

    def __getitem__(self, key: str) -> Job:
        self.looks += 1
        return self._jobs[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._jobs)

    def __len__(self) -> int:
        return len(self._jobs)


def _chain(count: int, head: JobStatus) -> dict[str, Job]:
    """A branch's jobs, each waiting for the one above; the first one ``head``."""
    jobs: dict[str, Job] = {}
    for index in range(count):
        job_id = f"j{index:05d}"
        jobs[job_id] = Job(id=job_id, kind=JobKind.GENERATE, node_id=f"n{index}", sequence=index,
                           status=head if index == 0 else JobStatus.QUEUED,
                           depends_on=f"j{index - 1:05d}" if index else None)
    return jobs


def test_a_long_branch_is_walked_once() -> None:
    for head in (JobStatus.INTERRUPTED, JobStatus.QUEUED):
        jobs = CountedJobs(_chain(3000, head))
        found = blocked_jobs(jobs)
        assert jobs.looks <= 2 * len(jobs), jobs.looks
        if head is JobStatus.INTERRUPTED:
            assert set(found) == set(list(jobs)[1:]) and {b.id for b in found.values()} == {"j00000"}
        else:
            assert found == {}


def test_the_answers_are_those_of_each_job_alone() -> None:
    jobs = _chain(6, JobStatus.INTERRUPTED)
    jobs.update(_chain(4, JobStatus.QUEUED))  # j00000..j00003 replaced: a queued head now
    odd = {
        "loop-a": Job(id="loop-a", kind=JobKind.GENERATE, node_id="x", depends_on="loop-b"),
        "loop-b": Job(id="loop-b", kind=JobKind.GENERATE, node_id="y", depends_on="loop-a"),
        "into-loop": Job(id="into-loop", kind=JobKind.GENERATE, node_id="z", depends_on="loop-b"),
        "stuck": Job(id="stuck", kind=JobKind.GENERATE, node_id="s", status=JobStatus.INTERRUPTED),
        "below-stuck": Job(id="below-stuck", kind=JobKind.GENERATE, node_id="t", depends_on="stuck"),
        "further": Job(id="further", kind=JobKind.GENERATE, node_id="u", depends_on="below-stuck"),
        "failed": Job(id="failed", kind=JobKind.GENERATE, node_id="v", status=JobStatus.FAILED,
                      depends_on="stuck"),
        "below-failed": Job(id="below-failed", kind=JobKind.GENERATE, node_id="w", depends_on="failed"),
        "gone": Job(id="gone", kind=JobKind.GENERATE, node_id="g", depends_on="forgotten"),
        "running": Job(id="running", kind=JobKind.GENERATE, node_id="r", status=JobStatus.RUNNING,
                       depends_on="stuck"),
    }
    jobs.update(odd)
    for order in (list(jobs), list(reversed(jobs))):  # whichever job a walk starts from
        table = {job_id: jobs[job_id] for job_id in order}
        expected = {job.id: blocker for job in table.values() if job.status is JobStatus.QUEUED
                    for blocker in [_walked_from(job, table)] if blocker is not None}
        assert blocked_jobs(table) == expected
        assert set(expected) == {"below-stuck", "further"}


def test_the_service_says_which_jobs_are_blocked(tmp_path: Path) -> None:
    script = FakeScript()
    with Project.create(tmp_path / "story") as project:
        parent, nodes = project.tree.root_id, []
        for index in range(4):
            project.apply(AddTurn(parent, f"Character: Qiqi; Motion: run; Background: day town; Step {index}"))
            parent = project.tree.children(parent)[-1].id
            nodes.append(parent)
        service = GenerationService(project, fake_registry(script), default_engine="fake", hosts=HostMode.IN_PROCESS)
        queued = service.fill(nodes[-1])
        first = queued[0]
        with project.database.transaction() as conn:  # a crash interrupted the first
            conn.execute("UPDATE jobs SET status='interrupted' WHERE id=?", (first,))
        service.stop()
    with Project.open(tmp_path / "story.kamishibai") as project:
        service = GenerationService(project, fake_registry(script), default_engine="fake", hosts=HostMode.IN_PROCESS)
        blocked = service.blocked()
        assert len(blocked) == 3 and {job.id for job in blocked.values()} == {first}
        assert all(service.blocked_by(job_id) is not None for job_id in blocked)
        service.stop()
