"""The render farm in the window: the settings' choice (greyed, with the install command,
without Ray), the cluster's actors under the queue, and opening a project whose settings
use the render farm: the window goes on while Ray starts, jobs queue meanwhile and then
run, and a cluster that can't be joined is said plainly while the jobs stay queued."""

from __future__ import annotations

import socket
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.composition import default_registry
from studio.ui.settings import StudioSettings
from studio.worker import JobStatus
from studio.worker.cluster import INSTALL_HINT, ActorState, ActorView, ClusterStatus


def test_without_ray_the_choice_is_greyed_and_says_how_to_get_it(qtbot, settings: StudioSettings,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import studio.ui.cluster_settings as cluster_settings
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    monkeypatch.setattr(cluster_settings, "ray_available", lambda: False)
    settings.cluster = "auto"
    dialog = SettingsDialog(settings, default_registry())
    qtbot.addWidget(dialog)
    assert not dialog.cluster.isEnabled()
    assert INSTALL_HINT in dialog.cluster.toolTip()
    dialog.save()
    assert settings.cluster == "auto"  # a greyed choice changes nothing


def test_the_choice_is_saved_and_a_bad_address_refused(qtbot, settings: StudioSettings,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import studio.ui.cluster_settings as cluster_settings
    from studio.core.errors import StudioError
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    monkeypatch.setattr(cluster_settings, "ray_available", lambda: True)
    dialog = SettingsDialog(settings, default_registry())
    qtbot.addWidget(dialog)
    assert dialog.cluster.isEnabled() and dialog.cluster.address() == ""
    dialog.cluster.where.setCurrentIndex(1)
    dialog.cluster.actors.setValue(2)
    dialog.save()
    assert (settings.cluster, settings.cluster_actors) == ("local", 2)
    dialog.cluster.where.setEditText("10.0.0.5:6379")
    assert dialog.cluster.address() == "10.0.0.5:6379"
    dialog.cluster.where.setEditText("ray://head:10001")
    with pytest.raises(StudioError, match="client addresses"):
        dialog.cluster.validated()
    reopened = SettingsDialog(settings, default_registry())
    qtbot.addWidget(reopened)
    assert reopened.cluster.address() == "local" and reopened.cluster.actor_count() == 2


class _Service:
    def __init__(self, status: ClusterStatus | None) -> None:
        self.status = status

    def cluster_status(self) -> ClusterStatus | None:
        return self.status

    def jobs(self, include_finished: bool = False) -> list[object]:
        return []

    def blocked(self) -> dict[str, object]:
        return {}

    def unrunnable_engines(self) -> dict[str, list[object]]:
        return {}


def test_the_queue_panel_shows_the_cluster_s_gpus_and_actors(qtbot) -> None:
    from studio.ui.job_tracker import JobTracker
    from studio.ui.queue_panel import QueuePanel

    panel = QueuePanel(JobTracker(), lambda job: "job")
    qtbot.addWidget(panel)
    panel.show()
    panel.set_service(_Service(None))
    assert panel.cluster.isHidden()
    status = ClusterStatus(address="local", nodes=1, cpus=32, gpus=2, actors=(
        ActorView(0, ActorState.RUNNING, node="10.0.0.2", device="GPU 0", pid=41, engine="mini", job_id="t1"),
        ActorView(1, ActorState.RESTARTING, node="10.0.0.3", device="GPU 1", restarts=1)))
    service = _Service(status)
    panel.set_service(service)
    assert not panel.cluster.isHidden()
    assert "2 GPUs" in panel.cluster.summary.text() and "2 actors, 1 busy" in panel.cluster.summary.text()
    text = panel.cluster.actors.text()
    assert "Actor 0: <span" in text and "running" in text and "GPU 0" in text and "pid 41" in text
    assert "restarting" in text and "restarted 1×" in text
    service.status = ClusterStatus(address="local", nodes=1, cpus=32, gpus=2, actors=(
        ActorView(0, ActorState.IDLE, device="GPU 0"), ActorView(1, ActorState.IDLE, device="GPU 1")))
    qtbot.waitUntil(lambda: "0 busy" in panel.cluster.summary.text(), timeout=3000)


# -- opening a project on the render farm: the window never waits on Ray ------------------------

FEW_TURNS = """Character: Qiqi; Motion: run; Background: forest.
Character: Qiqi; Motion: jump; Background: day sky.
## branch after 1
Character: Yuzu; Motion: happily wave; Background: day bakery.
"""


def _queued_project(folder: Path) -> Path:
    """Three turns, imported and queued with ``fill`` (small sketch clips)."""
    from studio.cli import main

    demo = folder / "turns.txt"
    demo.write_text(FEW_TURNS)
    assert main(["import-demo", str(demo), "--project", str(folder / "story")]) == 0
    path = folder / "story.kamishibai"
    assert main(["fill", str(path), "--setting", "width=160", "--setting", "height=112", "--setting", "frames=6"]) == 0
    return path


def _job_rows(path: Path) -> list[str]:
    """The jobs' states, read from the project's SQLite file (not from the service)."""
    database = sqlite3.connect(path / "project.db")
    try:
        return sorted(status for (status,) in database.execute("SELECT status FROM jobs"))
    finally:
        database.close()


def _closed_port() -> int:
    """A port nothing listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def no_ray_left() -> Iterator[None]:
    """Whatever Ray instance a test's window started ends with the test."""
    yield
    ray = sys.modules.get("ray")
    if ray is not None and ray.is_initialized():
        ray.shutdown()
    backend = sys.modules.get("studio.worker.cluster.backend")
    if backend is not None:
        backend._started_here = None  # type: ignore[attr-defined]


def _state(window: Any) -> str:
    session = window.session
    service = session.service if session is not None else None
    status = service.cluster_status() if service is not None else None
    return str(status.state.value) if status is not None else "none"


def test_opening_a_render_farm_project_returns_to_the_event_loop_and_the_jobs_then_finish(
        qtbot, make_window, settings: StudioSettings, tmp_path: Path, no_ray_left: None) -> None:
    pytest.importorskip("ray")
    from PySide6.QtCore import QTimer

    from studio.worker.cluster import ConnectionState

    path = _queued_project(tmp_path)
    settings.cluster, settings.cluster_actors = "local", 1
    window = make_window()
    ticks: list[str] = []  # the connection's state at each tick of a timer on the window's thread
    timer = QTimer(window)
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(_state(window)))
    timer.start()

    assert window.open_project(path), window.last_error
    service = window.session.service
    assert service is not None
    assert service.cluster_status().state is ConnectionState.CONNECTING  # Ray is being started meanwhile
    cluster_view = window.workspace.queue.cluster
    assert not cluster_view.isHidden() and "Connecting to the render farm (local)" in cluster_view.summary.text()
    assert "Connecting to the render farm" in window.status_label.text()
    queued = [job.id for job in service.jobs()]
    assert len(queued) == 3
    # a job queued while connecting waits with the others
    _, extra = service.generate(window.session.project.tree.root_id, "Character: Yuzu; Motion: run; Background: "
                                "day park.", settings={"width": 160, "height": 112, "frames": 6})
    assert service.cluster_status().state is ConnectionState.CONNECTING
    assert service.job(extra).status is JobStatus.QUEUED

    qtbot.waitUntil(lambda: all(service.job(j).finished for j in [*queued, extra]), timeout=240_000)
    timer.stop()
    assert all(service.job(j).status is JobStatus.DONE for j in [*queued, extra])
    connecting = ticks.count("connecting")
    assert connecting >= 5, ticks[:20]  # the event loop ran while Ray started
    assert ticks.index("connected") > ticks.index("connecting")
    qtbot.waitUntil(lambda: "Render farm connected" in window.status_label.text()
                    or "1 actors" in cluster_view.summary.text(), timeout=5000)
    assert "1 actors" in cluster_view.summary.text()
    for job_id in [*queued, extra]:
        take = window.session.project.tree.takes[service.job(job_id).take_id]
        assert all((path / file).is_file() for file in take.media_paths())
    assert _job_rows(path) == ["done"] * 4


@pytest.mark.parametrize("where", ["closed port", "no ray", "malformed address"])
def test_a_render_farm_that_cannot_be_joined_is_said_plainly_and_the_jobs_stay_queued(
        qtbot, make_window, settings: StudioSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        no_ray_left: None, where: str) -> None:
    from studio.worker.cluster import ConnectionState

    path = _queued_project(tmp_path)
    if where == "no ray":
        monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails, as where Ray is not installed
        settings.cluster, expected = "local", INSTALL_HINT
    elif where == "malformed address":  # saved by hand, or by a version that did not check it
        settings.cluster, expected = "head:-1", "not a Ray cluster's address"
    else:
        port = _closed_port()
        settings.cluster, expected = f"127.0.0.1:{port}", f"nothing takes connections at 127.0.0.1:{port}"
    window = make_window()
    assert window.open_project(path), window.last_error
    service = window.session.service
    assert service is not None
    qtbot.waitUntil(lambda: _state(window) == "failed", timeout=60_000)
    status = service.cluster_status()
    assert status.state is ConnectionState.FAILED and expected in status.error
    view = window.workspace.queue.cluster
    qtbot.waitUntil(lambda: "not connected" in view.summary.text(), timeout=5000)
    assert expected in view.summary.text() and "#ff7a7a" in view.summary.text()  # in red, under the queue
    assert "Queued jobs stay queued" in view.summary.text() or where == "no ray"
    assert expected in window.status_label.text()
    # nothing lost: the queued jobs stay queued, in the window and in the project's database
    _, extra = service.generate(window.session.project.tree.root_id, "Character: Qiqi; Motion: run; "
                                "Background: day park.")
    assert service.wait_idle(10)
    assert [job.status for job in service.jobs()] == [JobStatus.QUEUED] * 4
    assert _job_rows(path) == ["queued"] * 4
    assert service.job(extra).status is JobStatus.QUEUED


def test_connect_again_joins_the_render_farm_once_its_address_is_fixed(
        qtbot, make_window, settings: StudioSettings, tmp_path: Path, no_ray_left: None) -> None:
    pytest.importorskip("ray")
    from PySide6.QtCore import Qt

    path = _queued_project(tmp_path)
    settings.cluster, settings.cluster_actors = f"127.0.0.1:{_closed_port()}", 1  # a typo'd port
    window = make_window()
    assert window.open_project(path), window.last_error
    service = window.session.service
    view = window.workspace.queue.cluster
    qtbot.waitUntil(lambda: _state(window) == "failed", timeout=60_000)
    qtbot.waitUntil(lambda: not view.retry.isHidden(), timeout=5000)  # offered only after a failure
    assert service.connect_again() is True and service.wait_connected(60)  # the same address: fails again
    assert _state(window) == "failed"
    assert service.wait_idle(5) and _job_rows(path) == ["queued"] * 3

    settings.cluster = "local"  # fixed in the settings; the button joins at the new address
    qtbot.mouseClick(view.retry, Qt.MouseButton.LeftButton)
    assert _state(window) == "connecting"
    qtbot.waitUntil(lambda: view.retry.isHidden(), timeout=5000)
    assert service.connect_again() is False  # nothing to retry while connecting
    queued = [job.id for job in service.jobs()]
    qtbot.waitUntil(lambda: all(service.job(j).finished for j in queued), timeout=240_000)
    assert all(service.job(j).status is JobStatus.DONE for j in queued)
    assert _state(window) == "connected" and view.retry.isHidden()
    assert _job_rows(path) == ["done"] * 3
