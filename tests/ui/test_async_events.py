"""In the studio the window runs on a qasync loop; worker events reach it on the GUI thread."""

from __future__ import annotations

import asyncio
from pathlib import Path

from studio.ui.node_summary import CardStatus

from .conftest import services_with


def test_window_on_a_qasync_loop_reads_the_event_stream(qapp, qtbot, settings, registry,  # type: ignore[no-untyped-def]
                                                         sample_project: Path) -> None:
    import qasync

    from studio.ui.main_window import MainWindow

    loop = qasync.QEventLoop(qapp, already_running=False)
    asyncio.set_event_loop(loop)
    window = MainWindow(settings, services_with(registry), loop=loop)
    window.confirm = lambda title, text: True  # type: ignore[method-assign]
    window.ask_close_policy = lambda count: "cancel"  # type: ignore[method-assign]
    qtbot.addWidget(window)
    try:
        window.show()
        assert window.open_project(sample_project), window.last_error
        session = window.session
        assert session.events is not None
        tree = session.project.tree
        first = tree.child_ids(tree.root_id)[0]

        async def generate_and_watch() -> list[str]:
            seen: list[str] = []
            session.events.job_event.connect(lambda event: seen.append(str(event.kind.value)))
            window.workspace.select(first)
            window.actions_.reroll.trigger()
            for _ in range(600):
                await asyncio.sleep(0.05)
                if window.workspace.scene.status(first) is CardStatus.DONE and "finished" in seen:
                    break
            return seen

        seen = loop.run_until_complete(generate_and_watch())
        assert seen[0] == "queued" and "started" in seen and "finished" in seen
        assert window.workspace.scene.status(first) is CardStatus.DONE
        assert len(session.project.tree.takes_of(first)) == 1
    finally:
        window.close_project("cancel")
        window.close()
        loop.close()
        asyncio.set_event_loop(None)
