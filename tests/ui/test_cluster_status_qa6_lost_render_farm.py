"""The render farm lost after it was joined (its head stopped): the queue panel kept
saying "Ray cluster (…): 1 node…" in grey. It now says in red that it was lost, why, and
what to do, and the status bar hears it, with "Connect again" to join it at once once it is
back (the studio also tries by itself; tests/worker/test_cluster_lost_farm_is_joined_again.py)."""

from __future__ import annotations

from typing import Any

from studio.ui.cluster_status import FAILED_COLOUR, ClusterStatusView
from studio.worker.cluster import ActorState, ActorView, ClusterStatus
from studio.worker.cluster.status import ConnectionState


class _Service:
    def __init__(self, status: ClusterStatus) -> None:
        self.status = status

    def cluster_status(self) -> ClusterStatus:
        return self.status


def test_a_lost_render_farm_is_said_in_red_with_what_to_do(qtbot: Any) -> None:
    view = ClusterStatusView()
    qtbot.addWidget(view)
    notices: list[str] = []
    view.notice.connect(notices.append)
    service = _Service(ClusterStatus(address="10.0.0.5:6379", nodes=1, cpus=2, gpus=0,
                                     actors=(ActorView(0, ActorState.RUNNING),)))
    view.set_service(service)
    assert notices == ["Render farm connected: " + service.status.summary()]

    service.status = ClusterStatus(address="10.0.0.5:6379", nodes=0, cpus=0, gpus=0,
                                   actors=(ActorView(0, ActorState.STOPPED),), state=ConnectionState.LOST,
                                   error="its head at 10.0.0.5:6379 no longer answers", hint="Start it again.")
    view.refresh()
    text = view.summary.text()
    assert f"color:{FAILED_COLOUR}" in text and "was lost: its head at 10.0.0.5:6379 no longer answers" in text
    assert "Start it again." in text
    assert not view.retry.isHidden()
    assert notices[-1] == "The render farm (10.0.0.5:6379) was lost: its head at 10.0.0.5:6379 no longer answers"
