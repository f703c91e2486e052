"""An engine actor that could not start on its node shows why under the queue, in red, and
"Connect again" (shown while the farm is joined only for such an actor) asks for it to try
again once the node is fixed."""

from __future__ import annotations

from typing import Any

from studio.worker.cluster import ActorState, ActorView, ClusterStatus

REASON = "Engine actor 1 could not start on node 10.0.0.3: ModuleNotFoundError: No module named 'studio'"


class _Service:
    def __init__(self, status: ClusterStatus) -> None:
        self.status = status

    def cluster_status(self) -> ClusterStatus:
        return self.status


def _status(*actors: ActorView) -> ClusterStatus:
    return ClusterStatus(address="10.0.0.2:6379", nodes=2, cpus=16, gpus=0, actors=actors)


def test_the_reason_is_shown_and_connect_again_asks_for_the_actor_to_start(qtbot: Any) -> None:
    from studio.ui.cluster_status import ClusterStatusView

    view = ClusterStatusView()
    qtbot.addWidget(view)
    view.show()
    working = ActorView(0, ActorState.IDLE, node="10.0.0.2", device="CPU", pid=7)
    view.set_service(_Service(_status(working, ActorView(1, ActorState.STOPPED, error=REASON))))
    text = view.actors.text()
    assert "Actor 1: stopped" in text and "No module named 'studio'" in text and "color:#ff7a7a" in text
    assert view.retry.isVisible() and "could not start" in view.retry.toolTip()
    with qtbot.waitSignal(view.connect_again, timeout=2000):
        view.retry.click()

    view.service.status = _status(working, ActorView(1, ActorState.IDLE, node="10.0.0.3", device="CPU", pid=9))
    view.refresh()
    assert not view.retry.isVisible(), "every actor started: nothing to retry"
    assert "could not start" not in view.actors.text()
