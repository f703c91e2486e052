"""The render farm in the window: the settings' choice (greyed, with the install command,
without Ray) and the cluster's actors under the queue."""

from __future__ import annotations

import pytest

from studio.composition import default_registry
from studio.ui.settings import StudioSettings
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
