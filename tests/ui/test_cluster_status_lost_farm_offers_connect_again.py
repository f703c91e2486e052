"""A render farm lost after it was joined: the queue panel said so but offered no way back
(the app had to be restarted). It now says when the studio tries joining it again by itself
and why the last attempt failed, and "Connect again" asks for an attempt at once."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from studio.ui.cluster_status import FAILED_COLOUR, ClusterStatusView
from studio.worker.cluster import ActorState, ActorView, ClusterStatus
from studio.worker.cluster.retry import RETRY_HINT
from studio.worker.cluster.status import ConnectionState


class _Service:
    def __init__(self, status: ClusterStatus) -> None:
        self.status = status

    def cluster_status(self) -> ClusterStatus:
        return self.status


def test_a_lost_farm_says_when_it_is_tried_again_and_connect_again_asks_now(qtbot: Any) -> None:
    view = ClusterStatusView()
    qtbot.addWidget(view)
    asked: list[bool] = []
    view.connect_again.connect(lambda: asked.append(True))
    lost = ClusterStatus(address="10.0.0.5:6379", nodes=0, cpus=0, gpus=0, actors=(ActorView(0, ActorState.STOPPED),),
                         state=ConnectionState.LOST, hint=RETRY_HINT, retry_in_s=7.6, attempts=2,
                         error="its head at 10.0.0.5:6379 no longer answers. Last attempt: nothing answered")
    view.set_service(_Service(lost))
    text = view.summary.text()
    assert f"color:{FAILED_COLOUR}" in text
    assert "was lost: its head at 10.0.0.5:6379 no longer answers. Last attempt: nothing answered" in text
    assert "Trying again in 8 s (attempt 3)." in text and "Connect again" in text
    assert not view.retry.isHidden()
    qtbot.mouseClick(view.retry, Qt.MouseButton.LeftButton)
    assert asked == [True]
