"""The weights shipped in checkpoints/mini: they load, pass the catalogue's check, make a turn
on the CPU at reduced steps, and `kamishibai play --engine mini --json` reports the
predicted deltas and motion level."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.composition import default_checkpoints, default_registry  # noqa: E402
from studio.core.instruction import parse_instruction  # noqa: E402
from studio.engines.base import EngineConfig  # noqa: E402
from studio.engines.catalog.mini import INFO, MiniSettings  # noqa: E402
from studio.engines.context import GenerationContext, TurnContext  # noqa: E402
from studio.engines.mini import weights  # noqa: E402
from studio.engines.mini.engine import MiniEngine  # noqa: E402
from tests.engines.mini.qa40b_shipped import shipped_engine  # noqa: E402

SHIPPED = default_checkpoints() / "mini"


@pytest.fixture(scope="module")
def engine() -> MiniEngine:
    return shipped_engine()  # type: ignore[no-any-return]


def test_the_shipped_files_fit_the_repository_limits() -> None:
    manifest = weights.read_manifest(SHIPPED)
    sizes = [(SHIPPED / name).stat().st_size for name in manifest["files"]] + [(SHIPPED / "config.json").stat().st_size]
    assert all(size < weights.MAX_FILE_BYTES for size in sizes)
    # 32 MB as the machines count it (MiB): the working tree travels to a GPU machine in 64 MiB
    # and files come back in 16 MiB each; every file here also stays under 16,000,000 bytes
    assert sum(sizes) <= 32 * 1024 * 1024
    for name in weights.engine_files(weights.model_config(manifest, SHIPPED))[1:]:
        weights.verify_file(SHIPPED, name, manifest)  # size and SHA-256


def test_the_catalogue_check_passes_with_the_shipped_weights() -> None:
    assert default_registry().check("mini", EngineConfig(checkpoints=default_checkpoints())) == []


def test_one_turn_on_the_cpu_at_reduced_steps(engine: MiniEngine) -> None:
    settings = MiniSettings.from_values({"steps": 1, "height": 128, "width": 192})
    instruction = parse_instruction("Character: Qiqi; Motion: gently sit on railing; Background: day town.")
    prediction = engine.predict(GenerationContext(), instruction, settings, 7)
    assert prediction.representation.shape == INFO.capabilities.representation.shape
    assert 1 <= prediction.motion_level <= 5
    clip = engine.decode(prediction, settings, 7)
    assert clip.frames.shape == (17, 128, 192, 3)
    assert clip.frames.std() > 5, "the clip is not a flat colour"
    # the next turn reads this one's representation (its own space)
    turn = TurnContext(instruction=instruction, state=GenerationContext().state, deltas=prediction.deltas,
                       motion_level=prediction.motion_level, engine="mini",
                       representation_space=INFO.capabilities.representation.space,
                       representation=prediction.representation)
    second = engine.predict(GenerationContext(history=(turn,)), parse_instruction("Motion: wave."), settings, 8)
    alone = engine.predict(GenerationContext(), parse_instruction("Motion: wave."), settings, 8)
    assert not np.allclose(second.representation, alone.representation)


def test_the_prediction_says_what_the_model_understood_and_a_sketch_turn_continues_it(engine: MiniEngine) -> None:
    from studio.core.model import Take
    from studio.engines.sketch.engine import SketchEngine
    from studio.ui.inspector.understanding import understanding_chips

    settings = MiniSettings.from_values({"steps": 1, "height": 128, "width": 192})
    instruction = parse_instruction("Character: Yuzu; Motion: wave; Background: park; Time: sunset.")
    prediction = engine.predict(GenerationContext(), instruction, settings, 3)
    read = prediction.conditioning
    assert (read["motion"], read["location"], read["character"], read["time_of_day"]) == \
        ("wave", "park", "Yuzu", "sunset")
    assert next(iter(read["motions"])) == "wave"
    take = Take(id="t", node_id="n", engine="mini", motion_level=prediction.motion_level, conditioning=read)
    texts = [chip.text for chip in understanding_chips(instruction, take)]
    assert "motion: wave" in texts and "place: park" in texts and "character: Yuzu" in texts
    # a sketch turn that names only its motion stays where the mini turn was, with its character
    turn = TurnContext(instruction=instruction, state=GenerationContext().state, deltas=prediction.deltas,
                       motion_level=prediction.motion_level, engine="mini", conditioning=read)
    sketch = SketchEngine()
    sketch.load()
    after = sketch.predict(GenerationContext(history=(turn,)), parse_instruction("Motion: jump."),
                           sketch.info.settings(), 5)
    assert (after.conditioning["location"], after.conditioning["character"], after.conditioning["time_of_day"]) == \
        ("park", "Yuzu", "sunset")


def test_text_the_model_does_not_read_is_warned_about(engine: MiniEngine) -> None:
    settings = MiniSettings.from_values({"steps": 1})
    # in words the model learnt (words it never learnt are given to it in the sketch world's own, shorter)
    long = parse_instruction("Character: Qiqi; Background: " + "the park near the fountain near the station " * 6
                             + "; Motion: run.")
    warned = engine.predict(GenerationContext(), long, settings, 7).warnings
    assert any("reads the first 40 tokens" in w and "the Background and Motion were not read in full" in w
               and "put the motion first" in w for w in warned), warned
    quote = next(w for w in warned if "tokens" in w).split("from '")[1]
    assert any(quote.startswith(word) for word in long.raw.split()), quote  # on a word of the text
    wordy = parse_instruction("Character: Qiqi; Motion: run; Background: " + "the road near the fountain " * 10)
    warned = engine.predict(GenerationContext(), wordy, settings, 7).warnings
    note = next(w for w in warned if "tokens" in w)
    assert "the Background was not read in full" in note and "put the motion first" not in note, note
    short = parse_instruction("Character: Qiqi; Motion: run; Background: park.")
    assert not engine.predict(GenerationContext(), short, settings, 7).warnings
    warned = engine.predict(GenerationContext(), parse_instruction("Character: Qiqi"), settings, 7).warnings
    assert "no motion given, shown as 'idle'" in warned, warned  # drawn as the sketch draws it
    # a Japanese turn is read in English: 走る runs, so no motion is missing from it
    warned = engine.predict(GenerationContext(), parse_instruction("チーチーが公園で走る"), settings, 7).warnings
    assert not any("no motion" in w for w in warned), warned


def test_a_closing_full_stop_past_the_limit_is_not_warned_about(engine: MiniEngine) -> None:
    """The editor ends every instruction with a full stop; when that alone falls past what the
    model reads, nothing the user wrote was left out."""
    assert engine._runtime is not None
    vocab, limit = engine._runtime.vocab, engine._runtime.config.lm.max_instruction

    def tokens(text: str) -> int:
        return len(vocab.tokenizer.encode(text, add_special_tokens=False).ids)

    text = "Character: Qiqi; Motion: walk"
    while tokens(text + " slowly") <= limit:
        text += " slowly"
    assert tokens(text) == limit and tokens(text + ".") == limit + 1
    settings = MiniSettings.from_values({"steps": 1, "height": 64, "width": 96, "frames": 5})
    assert not [w for w in engine.predict(GenerationContext(), parse_instruction(text + "."), settings, 7).warnings
                if "tokens" in w]
    warned = engine.predict(GenerationContext(), parse_instruction(text + " home."), settings, 7).warnings
    assert any("did not read the last 1 word, from 'home.'; the Motion was not read in full (shorten it, or put "
               "the motion first)" in w for w in warned), warned


def test_words_outside_what_the_model_learnt_are_warned_about(engine: MiniEngine) -> None:
    settings = MiniSettings.from_values({"steps": 1, "height": 64, "width": 96, "frames": 5})
    known = engine.predict(GenerationContext(), parse_instruction("Character: Qiqi; Motion: run; Background: town."),
                           settings, 1)
    assert known.warnings == ()
    odd = engine.predict(GenerationContext(),
                         parse_instruction("Character: Zed; Motion: juggle; Background: atlantis."), settings, 1)
    text = " | ".join(odd.warnings)
    assert "'Zed' is not a character the mini model knows" in text
    # a word the sketch world reads through a stand-in is given to the model as that stand-in, said as the
    # sketch says it; a place it can't read at all is warned about with what the model read there
    assert "'juggle' unknown, shown as 'wave'" in text
    assert "'atlantis' is not a place the mini model learnt" in text
    assert f"it read it as '{odd.conditioning['location']}'" in text


def test_play_prints_the_predicted_deltas_and_motion_level(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from studio.cli import main

    project = tmp_path / "story.kamishibai"
    assert main(["new", str(project)]) == 0
    capsys.readouterr()
    code = main(["play", str(project), "--engine", "mini", "--json", "--seed", "3", "-i",
                 "Character: Qiqi; Motion: quickly run; Background: day town.",
                 "--setting", "steps=1", "--setting", "height=128", "--setting", "width=192"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["engine"] == "mini" and result["job_status"] == "done"
    assert set(result["deltas"]) == {"stamina", "social", "entertainment"}
    assert 1 <= result["motion_level"] <= 5


def test_the_shipped_model_is_the_one_its_training_config_builds() -> None:
    """The config that trained the shipped model builds exactly that model, so that
    ``--init checkpoints/mini`` under it loads every weight it trains and adds none, and the
    manifest says its stages ended."""
    from studio.engines.mini.config import load_train_config, named_config
    from studio.engines.mini.decoder import VideoDiT

    manifest = weights.read_manifest(SHIPPED)
    shipped_config = weights.model_config(manifest, SHIPPED)
    recipe = load_train_config(named_config("h200_skip_anneal"))
    assert manifest["training"]["config"]["name"] == recipe.name
    # the vocabulary size, the latents' scale and each latent channel's mean and spread are
    # measured by a run, not set in a config; the critic's widths are listed by the export that
    # carries it (the config's critic recipe has them)
    assert shipped_config.critic == recipe.critic.widths
    assert recipe.model.decoder.channel_norm and len(shipped_config.latent_std) == shipped_config.latent.latent_channels
    assert dataclasses.replace(recipe.model, vocab_size=shipped_config.vocab_size,
                               latent_scale=shipped_config.latent_scale, latent_mean=shipped_config.latent_mean,
                               latent_std=shipped_config.latent_std, critic=recipe.critic.widths) == shipped_config
    assert shipped_config.latent is not None and 0.1 < shipped_config.latent_scale < 1.0
    state = {k: v.float() for name in (weights.DECODER, weights.DECODER_IO)
             for k, v in weights.load_tensors(SHIPPED / name).items()}
    assert set(VideoDiT(recipe.model).state_dict()) == set(state)
    stages = manifest["training"]["run"]["stages"]
    assert all(stages[name]["done"] for name in ("autoencoder", "critic", "decoder", "lm", "adapt", "distill"))
    assert stages["decoder"]["seconds"] <= recipe.decoder_stage.minutes * 60 + 1
