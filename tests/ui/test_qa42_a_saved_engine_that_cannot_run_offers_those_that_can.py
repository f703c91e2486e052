"""A window opened with a saved engine that can't run here (animegamer, settings carried from a
GPU machine) says so beside the picker, in the window's words, offering the engines that can run:
it opened with it chosen and greyed out, without a word."""

from __future__ import annotations

from studio.ui.engine_picker import EnginePicker


def test_the_picker_says_it_and_names_the_engines_that_can_run(qtbot, registry) -> None:  # type: ignore[no-untyped-def]
    picker = EnginePicker()
    qtbot.addWidget(picker)
    picker.set_engines(registry, "animegamer")
    gpu = "The AnimeGamer engine needs a CUDA GPU, and this machine shows none."
    picker.set_availability({"animegamer": [gpu], "customx": ["Needs a GPU."], "mini": [], "sketch": []})
    assert picker.status.text().endswith("animegamer can't run here: choose mini or sketch"), picker.status.text()
    message = picker.unusable_message()
    assert message == f"The animegamer engine can't run here: {gpu} Choose mini or sketch in the Engine list to " \
                      "generate here.", message
    assert picker.status.toolTip() == message
    picker.combo.setCurrentIndex(picker.combo.findData("sketch"))
    assert picker.unusable_message() == "" and "can't run here" not in picker.status.text()


def test_with_no_engine_that_runs_it_points_to_the_settings(qtbot, registry) -> None:  # type: ignore[no-untyped-def]
    picker = EnginePicker()
    qtbot.addWidget(picker)
    picker.set_engines(registry, "mini")
    picker.set_availability({name: ["Missing x."] for name in registry.names()})
    assert "File › Settings › Checkpoints folder" in picker.unusable_message()
