"""An engine actor the cluster has no room for (more actors asked for than its CPUs or GPUs
hold) showed as "starting" for good, in the queue panel, with no word of why nothing ran
on it. It now shows as waiting for room, with what to do; and the text the panel shows of
an actor is escaped (it is rich text)."""

from __future__ import annotations

from studio.ui.cluster_status import describe_actor
from studio.worker.cluster import ActorState, ActorView


def test_an_actor_waiting_for_room_says_why_and_what_to_do() -> None:
    text = describe_actor(ActorView(index=2, state=ActorState.WAITING))
    assert text.startswith("Actor 2: <span style='color:#ff7a7a'>waiting for room</span>")
    assert "no room for it yet" in text and "fewer actors in Settings" in text


def test_a_starting_actor_reads_as_before() -> None:
    text = describe_actor(ActorView(index=0, state=ActorState.STARTING, node="10.0.0.3", pid=4242))
    assert text == ("Actor 0: <span style='color:#e0c060'>starting</span> "
                    "<span style='color:gray'>(10.0.0.3 · pid 4242)</span>")


def test_what_an_actor_reports_is_shown_as_text() -> None:
    text = describe_actor(ActorView(index=1, state=ActorState.IDLE, engine="<b>sketch</b>", node="10.0.0.3"))
    assert "&lt;b&gt;sketch&lt;/b&gt;" in text and "<b>" not in text
