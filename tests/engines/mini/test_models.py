"""The three networks at toy size: sequence layout, the LM's bidirectional query block, the
decoder's patches and sampler, the judge."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.engines.mini.config import load_train_config, named_config  # noqa: E402
from studio.engines.mini.data import EpisodeMaker, Split  # noqa: E402
from studio.engines.mini.decoder import ADDED_PARTS, VideoDiT, flow_loss, flow_times, interpolate_weight, sample  # noqa: E402
from studio.engines.mini.encoder import ClipEncoder  # noqa: E402
from studio.engines.mini.judge import Judge, head_sizes  # noqa: E402
from studio.engines.mini.lm import MiniLM, attention_mask, collate  # noqa: E402
from studio.engines.mini.sequence import PastTurn, build_input  # noqa: E402
from studio.engines.mini.tokenizer import ET, ML, PAD, QUERY, REP, SC, ST, Vocab, corpus, train_tokenizer  # noqa: E402

CONFIG = load_train_config(named_config("tiny"))


@pytest.fixture(scope="module")
def vocab() -> Vocab:
    maker = EpisodeMaker(dataclasses.replace(CONFIG.data, turns=2), CONFIG.model.video)
    texts = [t.text for i in range(8) for t in maker.make(Split.TRAIN, i).turns]
    return Vocab(train_tokenizer(corpus(texts), 300))


@pytest.fixture(scope="module")
def model_config(vocab: Vocab):  # type: ignore[no-untyped-def]
    return dataclasses.replace(CONFIG.model, vocab_size=vocab.size)


def test_sequence_layout(vocab: Vocab) -> None:
    rep = np.ones((32, 64), dtype=np.float32)
    past = [PastTurn("Character: Qiqi; Motion: run.", 4, (-3, 0, 1), rep), PastTurn("Motion: sit.", 1, (2, 0, 0))]
    item = build_input(vocab, history=past, state=(50, 40, 90), text="Motion: wave.", tokens=32, max_instruction=40,
                       level=2, deltas=(-1, 2, 1))
    assert [item.ids[p] for p in item.value_positions] == [vocab.id(t) for t in (ML, SC, ET, ST)]
    # values follow their markers: level, then social, entertainment, stamina (AnimeGamer's order)
    assert [item.ids[p + 1] for p in item.value_positions] == [vocab.level_id(2), vocab.delta_id(2),
                                                               vocab.delta_id(1), vocab.delta_id(-1)]
    assert item.ids[item.query_start:] == [vocab.id(QUERY)] * 32
    assert item.rep_ranges == [(item.rep_ranges[0][0], 0)] and len(item.history) == 1
    start = item.rep_ranges[0][0]
    assert item.ids[start:start + 32] == [vocab.id(REP)] * 32
    unknown = build_input(vocab, history=(), state=(50, 50, 50), text="Motion: wave.", tokens=32, max_instruction=40)
    assert [unknown.ids[p + 1] for p in unknown.value_positions] == [vocab.id(PAD)] * 4


def test_attention_is_causal_except_inside_the_query_block_and_never_on_padding() -> None:
    valid = torch.tensor([[True] * 6 + [False] * 2])
    query = torch.tensor([[-1, -1, -1, 0, 1, 2, -1, -1]])
    mask = attention_mask(valid, query)[0, 0]
    assert mask[1, 0] and not mask[0, 1]  # causal prefix
    assert mask[3, 5] and mask[5, 3]  # queries see each other both ways
    assert not mask[2, 3]  # the prefix never sees the queries
    assert not mask[:, 6:].any()  # padding is never attended to


def test_the_lm_reads_the_whole_query_block_and_nothing_later_leaks_into_the_prefix(vocab: Vocab,
                                                                                   model_config) -> None:  # type: ignore[no-untyped-def]
    torch.manual_seed(0)
    lm = MiniLM(model_config).eval()
    rep = np.random.default_rng(0).standard_normal((32, 64)).astype(np.float32)
    items = [build_input(vocab, history=[PastTurn("Motion: run.", 4, (-3, 0, 1), rep)], state=(50, 50, 50),
                         text="Motion: wave.", tokens=32, max_instruction=40, level=2, deltas=(-1, 2, 1))]
    batch = collate(items, 32, 64, vocab.id(PAD))
    with torch.no_grad():
        logits, out = lm(batch)
        hidden = lm.hidden(batch)
        changed = collate(items, 32, 64, vocab.id(PAD))
        last = items[0].query_start + 31
        changed.query_index[0, last] = 0  # the last query now carries another embedding
        hidden2 = lm.hidden(changed)
    assert logits.shape == (1, 4, model_config.vocab_size) and out.shape == (1, 32, 64)
    first_query = items[0].query_start
    assert not torch.allclose(hidden[0, first_query], hidden2[0, first_query]), "the block is bidirectional"
    assert torch.allclose(hidden[0, :first_query], hidden2[0, :first_query]), "the prefix is causal"
    # the earlier representation reaches the LM
    items2 = [dataclasses.replace(items[0], history=[rep * 0])]
    with torch.no_grad():
        _, out2 = lm(collate(items2, 32, 64, vocab.id(PAD)))
    assert not torch.allclose(out, out2)


def test_decoder_patches_round_trip_and_the_sampler_ends_at_the_clip(model_config) -> None:  # type: ignore[no-untyped-def]
    torch.manual_seed(0)
    dit = VideoDiT(model_config).eval()
    video = model_config.video
    clip = torch.rand(2, 3, video.frames, video.height, video.width) * 2 - 1
    assert torch.equal(dit.unpatchify(dit.patchify(clip)), clip)
    times = flow_times(4)
    assert times[0] == 0.0 and times[-1] == 1.0 and times == sorted(times)
    rep, level = torch.randn(2, 32, 64), torch.tensor([1, 5])
    out = sample(dit, rep, level, torch.randn_like(clip), steps=2)
    assert out.shape == clip.shape and out.abs().max() <= 1
    guided = sample(dit, rep, level, torch.randn_like(clip), steps=2, guidance=3.0)
    assert guided.shape == clip.shape
    weight = interpolate_weight(torch.zeros(2, 196), video.height, video.width, 3.0)
    assert torch.all(weight == 1)
    dit.train()
    loss = flow_loss(dit, clip, level, rep, weight)
    loss.backward()
    assert torch.isfinite(loss) and dit.embed.weight.grad is not None


def test_encoder_and_judge_shapes(model_config) -> None:  # type: ignore[no-untyped-def]
    video = model_config.video
    encoder = ClipEncoder(model_config)
    ids = torch.randint(0, model_config.vocab_size, (2, 6))
    valid = torch.ones(2, 6, dtype=torch.bool)
    valid[1, 3:] = False
    rep = encoder(ids, valid, torch.rand(2, 3, video.height, video.width))
    assert rep.shape == (2, 32, 64)
    assert torch.allclose(rep.pow(2).mean(-1), torch.ones(2, 32), atol=1e-3), "tokens are RMS-normalised"
    judge = Judge(model_config.judge)
    reading = judge(torch.rand(2, 3, video.frames, video.height, video.width))
    assert {k: v.shape[-1] for k, v in reading.logits.items()} == head_sizes()
    assert reading.features.shape[0] == 2


def test_the_spatial_path_starts_as_a_no_op_and_then_carries_the_image_grid(model_config) -> None:  # type: ignore[no-untyped-def]
    torch.manual_seed(0)
    assert model_config.decoder.spatial_rep
    dit = VideoDiT(model_config).eval()
    plain = VideoDiT(dataclasses.replace(model_config, decoder=dataclasses.replace(model_config.decoder,
                                                                                   spatial_rep=False))).eval()
    missing = set(dit.state_dict()) - set(plain.state_dict())
    assert missing == {"rep_grid.weight", "rep_grid.bias"}
    plain.load_state_dict({k: v for k, v in dit.state_dict().items() if k not in missing})
    video = model_config.video
    noisy = torch.randn(2, 3, video.frames, video.height, video.width)
    t, level, rep = torch.tensor([0.3, 0.6]), torch.tensor([2, 4]), torch.randn(2, 32, 64)
    with torch.no_grad():
        assert torch.allclose(dit(noisy, t, level, rep), plain(noisy, t, level, rep), atol=1e-5)
        torch.nn.init.normal_(dit.rep_grid.weight)
        grid = dit.spatial(rep)
        assert grid.shape == (2, 1, dit.grid[1] * dit.grid[2], model_config.decoder.hidden)
        changed = rep.clone()
        changed[:, :8] += 1.0  # the text tokens do not enter the spatial path
        assert torch.allclose(dit.spatial(changed), grid)
        changed[:, 8:] += 1.0
        assert not torch.allclose(dit(noisy, t, level, changed), dit(noisy, t, level, rep))


@pytest.mark.parametrize("option", [{"text_cond": True}, {"refine": 8}, {"text_cond": True, "refine": 8},
                                    {"motion_path": "tokens"}, {"motion_path": "adaln"}])
def test_added_decoder_paths_start_as_no_ops_and_then_change_the_output(model_config, option) -> None:  # type: ignore[no-untyped-def]
    torch.manual_seed(0)
    grown = VideoDiT(dataclasses.replace(model_config, decoder=dataclasses.replace(model_config.decoder, **option)))
    plain = VideoDiT(model_config).eval()
    torch.nn.init.normal_(plain.adaln[1].weight, std=0.05)  # as if trained: the conditioning reaches the blocks
    added = set(grown.state_dict()) - set(plain.state_dict())
    assert added and all(k.startswith(ADDED_PARTS) for k in added)
    grown.load_state_dict({**{k: v for k, v in grown.state_dict().items() if k in added}, **plain.state_dict()})
    grown.eval()
    video = model_config.video
    noisy = torch.randn(2, 3, video.frames, video.height, video.width)
    t, level, rep = torch.tensor([0.3, 0.6]), torch.tensor([2, 4]), torch.randn(2, 32, 64)
    with torch.no_grad():
        assert torch.allclose(grown(noisy, t, level, rep), plain(noisy, t, level, rep), atol=1e-5)
        for name, parameter in grown.named_parameters():
            if name in added:
                torch.nn.init.normal_(parameter, std=0.1)
        changed = rep.clone()
        changed[:, :8] += 1.0  # the text tokens only: the text path (or the refiner's input) sees it
        assert not torch.allclose(grown(noisy, t, level, changed), plain(noisy, t, level, changed), atol=1e-4)
        if grown.refiner is not None:  # it is told the flow time
            coarse = torch.randn_like(noisy)
            assert not torch.allclose(grown.refine(coarse, noisy, torch.tensor([0.1, 0.1])),
                                      grown.refine(coarse, noisy, torch.tensor([0.9, 0.9])), atol=1e-4)
    grown.train()
    loss = flow_loss(grown, noisy.clamp(-1, 1), level, rep, torch.ones(2, 1, 1, video.height, video.width))
    loss.backward()
    assert all(p.grad is not None for n, p in grown.named_parameters() if n in added)


@pytest.mark.parametrize("mode", ["tokens", "adaln"])
def test_the_motion_path_tells_time_slices_apart(model_config, mode) -> None:  # type: ignore[no-untyped-def]
    """Once the motion path has weights (random here), what it adds to the prediction of a
    still clip differs from one time slice to the next, and it follows the text tokens only."""
    torch.manual_seed(0)
    decoder = dataclasses.replace(model_config.decoder, motion_path=mode, tpatch=1)
    dit = VideoDiT(dataclasses.replace(model_config, decoder=decoder)).eval()
    video = model_config.video
    still = torch.randn(1, 3, 1, video.height, video.width).expand(-1, -1, video.frames, -1, -1).contiguous()
    t, level, rep = torch.tensor([0.5]), torch.tensor([3]), torch.randn(1, 32, 64)
    assert dit.motion_path is not None and dit.grid[0] == video.frames
    with torch.no_grad():
        torch.nn.init.normal_(dit.adaln[1].weight, std=0.05)  # as if trained
        torch.nn.init.normal_(dit.out_adaln[1].weight, std=0.05)
        base = dit(still, t, level, rep)
        for parameter in dit.motion_path.parameters():
            torch.nn.init.normal_(parameter, std=0.2)
        added = dit(still, t, level, rep) - base
        per_frame = added.mean(dim=(1, 3, 4))[0]  # (frames,)
        assert float(per_frame.std()) > 1e-3 and float(added.abs().mean()) > 1e-3
        offsets = dit.slice_offsets(rep)
        assert offsets.shape == (1, video.frames, decoder.hidden)
        other = rep.clone()
        other[:, :8] = torch.randn(1, 8, 64)
        assert not torch.allclose(dit.slice_offsets(other), offsets)
        image_only = rep.clone()
        image_only[:, 8:] += 1.0
        assert torch.allclose(dit.slice_offsets(image_only), offsets)  # only the text tokens feed it
    with pytest.raises(ValueError, match="motion_path 'frames'"):
        VideoDiT(dataclasses.replace(model_config, decoder=dataclasses.replace(decoder, motion_path="frames")))


def test_the_temporal_loss_adds_the_error_of_the_frame_to_frame_change(model_config) -> None:  # type: ignore[no-untyped-def]
    video = model_config.video
    clip = torch.rand(2, 3, video.frames, video.height, video.width) * 2 - 1
    rep, level = torch.randn(2, 32, 64), torch.tensor([1, 5])
    weight = torch.ones(2, 1, 1, video.height, video.width)
    losses = {}
    for extra in (0.0, 1.0):
        torch.manual_seed(0)
        decoder = dataclasses.replace(model_config.decoder, loss_space="x", temporal_loss=extra)
        dit = VideoDiT(dataclasses.replace(model_config, decoder=decoder))
        with torch.no_grad():
            losses[extra] = float(flow_loss(dit, clip, level, rep, weight, generator=torch.Generator().manual_seed(3)))
    assert losses[1.0] > losses[0.0] > 0
    # a still clip predicted still has no change error: the extra term is only about movement
    torch.manual_seed(0)
    decoder = dataclasses.replace(model_config.decoder, loss_space="x", temporal_loss=1.0)
    dit = VideoDiT(dataclasses.replace(model_config, decoder=decoder))
    with torch.no_grad():
        for parameter in dit.parameters():
            parameter.zero_()
    still = torch.zeros(2, 3, video.frames, video.height, video.width)
    moving = still.clone()
    moving[:, :, 1::2] = 0.5
    plain = dataclasses.replace(decoder, temporal_loss=0.0)
    base = VideoDiT(dataclasses.replace(model_config, decoder=plain))
    base.load_state_dict(dit.state_dict())
    with torch.no_grad():
        assert float(flow_loss(dit, still, level, rep, weight)) == 0.0
        assert float(flow_loss(dit, moving, level, rep, weight)) > float(flow_loss(base, moving, level, rep, weight))


def test_the_loss_space_weighs_noisy_samples_differently_and_unknown_spaces_are_refused(model_config) -> None:  # type: ignore[no-untyped-def]
    video = model_config.video
    clip = torch.rand(2, 3, video.frames, video.height, video.width) * 2 - 1
    rep, level = torch.randn(2, 32, 64), torch.tensor([1, 5])
    weight = torch.ones(2, 1, 1, video.height, video.width)
    losses = {}
    for space in ("velocity", "x"):
        torch.manual_seed(0)
        dit = VideoDiT(dataclasses.replace(model_config, decoder=dataclasses.replace(model_config.decoder,
                                                                                     loss_space=space)))
        losses[space] = float(flow_loss(dit, clip, level, rep, weight, generator=torch.Generator().manual_seed(3)))
    assert losses["velocity"] > losses["x"] > 0  # dividing by the noise left (< 1) can only raise the error
    torch.manual_seed(0)
    odd_decoder = dataclasses.replace(model_config.decoder, loss_space="eps")
    odd = VideoDiT(dataclasses.replace(model_config, decoder=odd_decoder))
    with pytest.raises(ValueError, match="loss_space 'eps'"):
        flow_loss(odd, clip, level, rep, weight)


def test_token_noise_touches_only_the_current_instruction(vocab: Vocab) -> None:
    from studio.engines.mini.lm import noisy_instruction
    from studio.engines.mini.tokenizer import INSTR, UNK

    past = [PastTurn("Character: Aoi; Motion: run.", 3, (-2, 0, 1))]
    items = [build_input(vocab, history=past, state=(50, 50, 50), text="Let Aoi dance at the park at night.",
                         tokens=32, max_instruction=40, level=4, deltas=(-3, 1, 3)) for _ in range(3)]
    batch = collate(items, 32, 64, vocab.id(PAD))
    words = torch.tensor([i for i in range(vocab.size) if i not in set(vocab.special_ids())])
    noisy = noisy_instruction(batch, vocab.id(INSTR), words, vocab.id(UNK), 1.0, torch.Generator().manual_seed(0))
    start = items[0].ids.index(vocab.id(INSTR)) + 1
    end = items[0].value_positions[0]
    assert torch.equal(noisy.ids[:, :start], batch.ids[:, :start])
    assert torch.equal(noisy.ids[:, end:], batch.ids[:, end:])
    assert not torch.equal(noisy.ids[:, start:end], batch.ids[:, start:end])
    assert noisy_instruction(batch, vocab.id(INSTR), words, vocab.id(UNK), 0.0) is batch
