"""The cluster's GPUs and engine actors, under the queue (shown only on a cluster).

It reads ``service.cluster_status()``, which is kept in memory by the worker threads: a
refresh never waits on the cluster. While the cluster is being joined (on a thread of its
own) it says so, and if joining fails it says why in red, with a "Connect again" button: the
queued jobs wait. A farm lost after it was joined (its head stopped answering) is said the
same way, with when the studio tries joining it again by itself, and the same button to try
at once. Each change of the connection is also sent as :attr:`ClusterStatusView.notice`,
for the status bar."""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

REFRESH_MS = 1000
CONNECTING_REFRESH_MS = 250
FAILED_COLOUR = "#ff7a7a"
STATE_COLOURS = {"running": "#7ad07a", "loading": "#e0c060", "restarting": "#ff7a7a", "starting": "#e0c060",
                 "waiting for room": "#ff7a7a"}


def describe_actor(actor: Any) -> str:
    where = " · ".join(part for part in (actor.device, actor.node, f"pid {actor.pid}" if actor.pid else "") if part)
    state = str(getattr(actor.state, "value", actor.state))
    colour = STATE_COLOURS.get(state)
    named = escape(state, quote=False)
    shown = f"<span style='color:{colour}'>{named}</span>" if colour else named
    extra = f" · {escape(actor.engine, quote=False)}" if actor.engine else ""
    restarts = f" · restarted {actor.restarts}×" if actor.restarts else ""
    why = (" — the cluster has no room for it yet (it takes no job; ask for fewer actors in Settings, or add "
           "nodes)") if state == "waiting for room" else ""
    error = getattr(actor, "error", "")
    if error:  # it could not start: it takes no job, and Connect again lets it try once its node is fixed
        why = f" — <span style='color:{FAILED_COLOUR}'>{escape(error, quote=False)}</span>"
    return f"Actor {actor.index}: {shown}{extra}{restarts}{why}" + (
        f" <span style='color:gray'>({escape(where, quote=False)})</span>" if where else "")


class ClusterStatusView(QWidget):
    notice = Signal(str)
    """The connection changed: "Connecting to the render farm…", joined, or why it failed."""
    connect_again = Signal()
    """The author asks to join again after a failure (Ray installed or the address fixed), or
    after the farm was lost (started again), or, joined, for the engine actors that could not
    start to try again (their nodes fixed)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service: Any = None
        self.summary = QLabel(self)
        self.summary.setObjectName("dimLabel")
        self.summary.setWordWrap(True)
        self.actors = QLabel(self)
        self.actors.setWordWrap(True)
        self.retry = QPushButton("Connect again", self)
        self.retry.setToolTip("Join the render farm again, at the address the settings give now")
        self.retry.clicked.connect(self.connect_again.emit)
        self.retry.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        retry_row = QHBoxLayout()
        retry_row.addWidget(self.retry)
        retry_row.addStretch(1)
        layout.addLayout(retry_row)
        layout.addWidget(self.actors)
        self._timer = QTimer(self)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self.refresh)
        self._connection = ""
        self._notice = ""
        self.setVisible(False)

    def set_service(self, service: Any) -> None:
        self.service = service
        self._connection = ""
        self.refresh()

    def announce(self) -> None:
        """Send the current notice again (a window that starts listening after the first)."""
        if self._notice:
            self.notice.emit(self._notice)

    def refresh(self) -> None:
        status_of = getattr(self.service, "cluster_status", None)
        status = status_of() if status_of is not None else None
        if status is None:
            self._timer.stop()
            self.setVisible(False)
            return
        state = str(getattr(getattr(status, "state", None), "value", "connected"))
        self._timer.setInterval(CONNECTING_REFRESH_MS if state == "connecting" else REFRESH_MS)
        if not self._timer.isActive():
            self._timer.start()
        self.setVisible(True)
        summary = escape(status.summary(), quote=False)
        if state in ("failed", "lost"):  # lost: joined, then the cluster went away
            hint = f"<br>{escape(status.hint, quote=False)}" if status.hint else ""
            self.summary.setText(f"<span style='color:{FAILED_COLOUR}'>{summary}</span>{hint}")
        else:
            self.summary.setText(summary)
        stopped = state == "connected" and any(getattr(actor, "error", "") for actor in status.actors)
        self.retry.setVisible(state in ("failed", "lost") or stopped)
        self.retry.setToolTip("Start again the engine actors that could not start (once their nodes are fixed)"
                              if stopped else "Join the render farm again, at the address the settings give now")
        self.actors.setText("<br>".join(describe_actor(actor) for actor in status.actors))
        if state != self._connection:
            self._connection = state
            self._notice = status.summary() if state != "connected" else f"Render farm connected: {status.summary()}"
            self.notice.emit(self._notice)
