"""Decoder-only CPU experiments at reduced scale: ``python -m studio.engines.mini.experiment``.

Two commands. ``prepare`` renders training and held-out episodes with the sketch world
(the shipped configuration's data seeds), computes the shipped encoder's representation
of every clip from its full-size first frame, downsamples the clips to the judge's input
size (``--height`` x ``--width``, area) and stores everything in one ``.pt`` file.
``run`` trains one decoder variant on that file to a fixed budget of training FLOPs
(counted with ``torch.utils.flop_counter`` on the first step, so runs compare at equal
compute whatever else the machine is doing), then samples the held-out turns and scores
them: the shipped judge's motion / location / character / time accuracy and PSNR on the
whole clip and on the character's region. The LM is out of the loop.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import time
from pathlib import Path
from typing import Any, cast

import torch
import torch.nn.functional as F  # noqa: N812

from studio.engines.mini import weights
from studio.engines.mini.canvas import from_canvas, to_canvas
from studio.engines.mini.config import (
    DecoderConfig,
    LatentConfig,
    ModelConfig,
    VideoSpec,
    from_dict,
    load_train_config,
    named_config,
)
from studio.engines.mini.data import Split, turn_labels
from studio.engines.mini.dataset import EpisodePool, gather, to_float
from studio.engines.mini.research import (
    Budget,
    accuracy,
    frame_change,
    frame_changes,
    judge_readings,
    load_judge,
    psnr,
    train_to_budget,
)

CHECKPOINT = Path(__file__).resolve().parents[3] / "checkpoints" / "mini"


def prepare(out: Path, train_episodes: int, heldout_episodes: int, height: int, width: int, workers: int,
            with_reps: bool = True) -> None:
    from studio.engines.mini.encoder import ClipEncoder
    from studio.engines.mini.tokenizer import Vocab

    config = load_train_config(named_config("h200_lease5"))
    data, video = config.data, config.model.video
    manifest = weights.read_manifest(CHECKPOINT)
    model = weights.model_config(manifest, CHECKPOINT)
    vocab = Vocab.load(CHECKPOINT / weights.TOKENIZER)
    encoder = ClipEncoder(model).eval()
    weights.load_float_into(encoder, CHECKPOINT / weights.ENCODER)
    pool = EpisodePool(workers)
    result: dict[str, Any] = {"height": height, "width": width, "frames": video.frames}
    for split, count in ((Split.TRAIN, train_episodes), (Split.HELDOUT, heldout_episodes)):
        started = time.monotonic()
        # held-out episodes come from a separate index range so they never overlap the lease's own evaluation set
        indices = range(count) if split is Split.TRAIN else range(5000, 5000 + count)
        clipset = gather(pool.episodes(data, video, split, indices, render=True), count, data.turns, video,
                         torch.device("cpu"), rendered=True)
        seconds = time.monotonic() - started
        turns = clipset.table.turns
        small, reps = [], []
        with torch.no_grad():
            for start in range(0, len(turns), 64):
                if (clipset.clips.shape[2], clipset.clips.shape[3]) == (height, width):
                    small.append(clipset.clips[start:start + 64])  # already the size asked for
                else:
                    clips = to_float(clipset.clips[start:start + 64])
                    b, c, t, h, w = clips.shape
                    flat = F.interpolate(clips.transpose(1, 2).reshape(b * t, c, h, w), size=(height, width),
                                         mode="area")
                    small.append(((flat.reshape(b, t, c, height, width) + 1) * 127.5).round().clamp(0, 255)
                                 .to(torch.uint8).permute(0, 1, 3, 4, 2))
                if with_reps:
                    reps.append(_representations(encoder, vocab, model, turns[start:start + 64],
                                                 to_float(clipset.clips[start:start + 64])))
        result[split.value] = {
            "clips": torch.cat(small), **({"reps": torch.cat(reps)} if with_reps else {}),
            "levels": torch.tensor([t.level for t in turns]),
            "labels": torch.tensor([turn_labels(t) for t in turns]),
            "occupancy": torch.tensor([t.occupancy for t in turns], dtype=torch.float32),
            "render_seconds": seconds,
        }
        print(f"{split.value}: {len(turns)} turns rendered in {seconds:.1f} s", flush=True)
    pool.close()
    torch.save(result, out)


def _representations(encoder: Any, vocab: Any, model: ModelConfig, turns: list[Any], clips: torch.Tensor
                     ) -> torch.Tensor:
    """The shipped encoder's representation of each turn (its action text and first frame)."""
    from studio.engines.mini.tokenizer import PAD

    ids = torch.full((clips.shape[0], model.encoder.max_text), vocab.id(PAD), dtype=torch.long)
    valid = torch.zeros_like(ids, dtype=torch.bool)
    for i, turn in enumerate(turns):
        tokens = vocab.encode(turn.action_text, model.encoder.max_text) or [vocab.id(PAD)]
        ids[i, :len(tokens)] = torch.tensor(tokens)
        valid[i, :len(tokens)] = True
    return cast(torch.Tensor, encoder(ids, valid, clips[:, :, 0]))


@dataclasses.dataclass
class Variant:
    """One decoder recipe: the decoder config and the training choices."""

    decoder: DecoderConfig
    batch: int = 8
    lr: float = 4e-4
    warmup: int = 50
    ema: float = 0.99
    frame_step: int = 2
    """Train on every ``frame_step``-th frame (2: 9 of 17, exactly the frames the judge reads)."""
    oracle_motion: bool = False
    """A diagnostic, not a recipe: replace the representation's text tokens (training and
    held-out alike) by a fixed random code of the turn's motion class, so that the decoder is
    told the motion as plainly as a label would (the old toy experiment's conditioning)."""


def oracle_text(reps: torch.Tensor, motions: torch.Tensor, text_tokens: int, seed: int = 77) -> torch.Tensor:
    """``reps`` with its first ``text_tokens`` tokens replaced by a per-motion random code
    (RMS 1 per token, like the encoder's tokens); the same motion always gets the same code."""
    classes = int(motions.max()) + 1
    codes = torch.randn(classes, text_tokens, reps.shape[2], generator=torch.Generator().manual_seed(seed))
    out = reps.clone()
    out[:, :text_tokens] = codes[motions]
    return out


def blocks(clips: torch.Tensor, size: int) -> torch.Tensor:
    """Clips (B, 3, T, H, W) with every frame averaged over ``size`` x ``size`` pixel blocks."""
    b, c, t, h, w = clips.shape
    flat = clips.transpose(1, 2).reshape(b * t, c, h, w)
    flat = F.interpolate(F.avg_pool2d(flat, size), size=(h, w), mode="nearest")
    return flat.reshape(b, t, c, h, w).transpose(1, 2)


def correlation(a: torch.Tensor, b: torch.Tensor) -> float:
    """Pearson correlation of two (B,) tensors."""
    a, b = a.float() - a.float().mean(), b.float() - b.float().mean()
    return float((a * b).sum() / (a.norm() * b.norm()).clamp(min=1e-12))


def _model(variant: Variant, height: int, width: int, frames: int) -> ModelConfig:
    return ModelConfig(video=VideoSpec(height=height, width=width, frames=frames), decoder=variant.decoder)


def load_autoencoder(path: Path, config: LatentConfig) -> Any:
    """A ``VideoAutoencoder`` with the weights of a safetensors file written by ``save_model``
    (fp16 or fp32; the aliases it dropped are restored), in float32, eval mode."""
    from safetensors.torch import load_model

    from studio.engines.mini.latent_ae import VideoAutoencoder

    model = VideoAutoencoder(config)
    try:
        load_model(model, str(path))
    except RuntimeError as error:  # missing, unexpected or misshapen tensors
        raise ValueError(f"{path}: not a {config} autoencoder: {error}") from error
    return model.float().eval().requires_grad_(False)


def latent_table(autoencoder: Any, clips_u8: torch.Tensor, cache: Path, batch: int = 8
                 ) -> tuple[torch.Tensor, float]:
    """Every clip's latent (N, C, T', H', W') from uint8 clips (N, T, H, W, 3), encoded once
    (no grad, in batches) and kept in ``cache``; the seconds the encoding took (then or before)."""
    if cache.exists():
        saved = torch.load(cache)
        print(f"latent table from {cache} (encoded in {saved['seconds']:.1f} s)", flush=True)
        return saved["table"], float(saved["seconds"])
    from studio.engines.mini.latent_ae import encode_clips

    started = time.monotonic()
    table = encode_clips(autoencoder, clips_u8, batch)
    seconds = time.monotonic() - started
    torch.save({"table": table, "seconds": seconds}, cache)
    print(f"latent table {tuple(table.shape)} encoded in {seconds:.1f} s -> {cache}", flush=True)
    return table, seconds


def _cache_path(data_path: Path, weights_path: Path, config: LatentConfig) -> Path:
    """The latent table's file next to the data: named after the autoencoder's weights and config."""
    import hashlib

    digest = hashlib.sha256(weights_path.read_bytes() + json.dumps(dataclasses.asdict(config)).encode()).hexdigest()
    return data_path.with_name(f"{data_path.stem}.latent-{digest[:12]}.pt")


def run(data_path: Path, variant: Variant, tflops: float, out: Path, seed: int, sample_steps: list[int],
        nets: tuple[str, ...] = ("raw", "ema"), latent: tuple[Path, LatentConfig] | None = None) -> dict[str, Any]:
    """Train ``variant`` to ``tflops`` and score its held-out samples. With ``latent`` (an
    autoencoder's weights and config) the DiT works on the autoencoder's latent of the whole
    clips (``frame_step`` 1) divided by their std, and its samples are decoded to pixels."""
    from studio.engines.mini.decoder import VideoDiT, flow_loss, interpolate_weight, sample

    data = torch.load(data_path)
    height, width = data["height"], data["width"]
    frames = len(range(0, data["frames"], variant.frame_step))
    config = _model(variant, height, width, frames)
    train, held = data["train"], data["heldout"]
    autoencoder, table, encode_seconds = None, None, 0.0
    if latent is not None:
        if variant.frame_step != 1:
            raise ValueError("a latent run models every frame: use frame_step 1")
        autoencoder = load_autoencoder(*latent)
        table, encode_seconds = latent_table(autoencoder, train["clips"], _cache_path(data_path, *latent))
        config = dataclasses.replace(config, latent=latent[1], latent_scale=float(table.std()))
    _c, _t, canvas_h, canvas_w = config.canvas()
    if variant.oracle_motion:
        text_tokens = config.representation.text_tokens
        train = train | {"reps": oracle_text(train["reps"], train["labels"][:, 0], text_tokens)}
        held = held | {"reps": oracle_text(held["reps"], held["labels"][:, 0], text_tokens)}
    clips_u8 = train["clips"][:, :: variant.frame_step]
    torch.manual_seed(seed)
    model = VideoDiT(config)
    ema = copy.deepcopy(model).eval().requires_grad_(False)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=variant.lr, betas=(0.9, 0.99), weight_decay=0.01)
    generator = torch.Generator().manual_seed(seed)
    dec = config.decoder

    def step_loss() -> torch.Tensor:
        index = torch.randint(0, clips_u8.shape[0], (variant.batch,), generator=generator)
        clips = to_float(clips_u8[index]) if table is None else to_canvas(config, table[index])
        rep = train["reps"][index] + dec.rep_noise * torch.randn(train["reps"][index].shape, generator=generator)
        level = train["levels"][index]
        keep = torch.rand(variant.batch, generator=generator) >= dec.null_rate
        rep, level = model.drop(rep, level, keep)
        weight = interpolate_weight(train["occupancy"][index], canvas_h, canvas_w, dec.fg_weight)
        return flow_loss(model, clips, level, rep, weight, generator=generator)

    def ema_update(k: int) -> None:
        with torch.no_grad():
            decay = min(variant.ema, (1 + k) / (10 + k))
            torch._foreach_lerp_(list(ema.parameters()), [p.detach() for p in model.parameters()], 1 - decay)

    log = train_to_budget(step_loss, params, optimizer, Budget(tflops=tflops), lr=variant.lr, warmup=variant.warmup,
                          after_step=ema_update)
    judge = load_judge()
    truth = held["labels"]
    gt = to_float(held["clips"][:, :: variant.frame_step])
    mask = interpolate_weight(held["occupancy"], height, width, 1.0) > 1.5
    result: dict[str, Any] = {"variant": json.loads(json.dumps(dataclasses.asdict(variant))),
                              **log.to_json(params_m=sum(p.numel() for p in model.parameters()) / 1e6)}
    if latent is not None:
        result["latent"] = {"weights": str(latent[0]), "config": dataclasses.asdict(latent[1]),
                            "canvas": list(config.canvas()), "latent_scale": config.latent_scale,
                            "encode_seconds": round(encode_seconds, 1)}

    def generate(net: VideoDiT, rep: torch.Tensor, level: torch.Tensor, z: torch.Tensor, steps: int) -> torch.Tensor:
        """Clips in [-1, 1]: pixel samples, or latent samples decoded by the autoencoder."""
        made = sample(net, rep, level, z, steps, clamp=autoencoder is None)
        return made if autoencoder is None else autoencoder.decode(from_canvas(config, made)).clamp(-1, 1)

    def score(clips: torch.Tensor) -> dict[str, float]:
        out: dict[str, float] = dict(accuracy(judge_readings(judge, clips), truth))
        out["psnr"] = psnr(clips, gt)
        out["fg_psnr"] = psnr(clips, gt, mask)
        out["change"] = frame_change(clips)
        out["fg_change"] = frame_change(clips, mask)
        return out

    result["ground_truth"] = score(gt)
    noise = torch.randn((gt.shape[0], *config.canvas()), generator=torch.Generator().manual_seed(1234))
    for steps_k in sample_steps:
        for name, net in (("raw", model.eval()), ("ema", ema)):
            if name not in nets:
                continue
            started = time.monotonic()
            made = []
            with torch.no_grad():
                for s in range(0, gt.shape[0], 32):
                    made.append(generate(net, held["reps"][s:s + 32], held["levels"][s:s + 32], noise[s:s + 32],
                                         steps_k))
            seconds = time.monotonic() - started
            key = name if steps_k == sample_steps[0] else f"{name}_{steps_k}"
            result[key] = score(torch.cat(made)) | {"sample_seconds": round(seconds, 1),
                                                    "sample_seconds_per_clip": round(seconds / gt.shape[0], 3),
                                                    "sample_gflops_per_clip": round(sample_flops(
                                                        generate, net, held["reps"][:1], held["levels"][:1],
                                                        noise[:1], steps_k) / 1e9, 2)}
            if name == "ema":
                sheet = torch.cat([gt[:6, :, ::2], torch.cat(made)[:6, :, ::2]])
                _save_sheet(sheet, out.with_name(f"{out.stem}_{steps_k}.png"))
    from safetensors.torch import save_file

    save_file({k: v.contiguous() for k, v in ema.state_dict().items()}, str(out.with_suffix(".safetensors")))
    out.write_text(json.dumps(result, indent=1))
    print(json.dumps(result), flush=True)
    return result


def sample_flops(make: Any, *args: Any) -> float:
    """FLOPs of ``make(*args)`` (one clip's sampling, the autoencoder's decode included)."""
    from torch.utils.flop_counter import FlopCounterMode

    counter = FlopCounterMode(display=False)
    with counter, torch.no_grad():
        make(*args)
    return float(counter.get_total_flops())


def linear_probe(train_x: torch.Tensor, train_y: torch.Tensor, test_x: torch.Tensor, test_y: torch.Tensor,
                 l2: float = 1e-3, iterations: int = 200) -> float:
    """Held-out accuracy of a multinomial logistic regression (standardised features, L2
    penalty, L-BFGS) fitted on the training rows."""
    mean, std = train_x.mean(0), train_x.std(0).clamp(min=1e-6)
    a, b = (train_x - mean) / std, (test_x - mean) / std
    classes = int(max(train_y.max(), test_y.max())) + 1
    weight = torch.zeros(a.shape[1], classes, requires_grad=True)
    bias = torch.zeros(classes, requires_grad=True)
    optimizer = torch.optim.LBFGS([weight, bias], max_iter=iterations, line_search_fn="strong_wolfe")

    def closure() -> torch.Tensor:
        optimizer.zero_grad()
        loss = F.cross_entropy(a @ weight + bias, train_y) + l2 * weight.pow(2).sum()
        loss.backward()  # type: ignore[no-untyped-call]
        return loss

    optimizer.step(closure)  # type: ignore[no-untyped-call]
    with torch.no_grad():
        return float(((b @ weight + bias).argmax(1) == test_y).float().mean())


def probe_table(train: dict[str, torch.Tensor], held: dict[str, torch.Tensor], text_tokens: int
                ) -> dict[str, dict[str, float]]:
    """Linear probes of what the decoder receives, per input path: the flattened
    representation (cross-attention), its text and image tokens, the mean of all tokens (the
    adaLN path), the mean of the text tokens (``text_cond`` and ``motion_path``), and the
    motion level alone (the other adaLN input), for motion, location and character."""
    def views(part: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
        reps = part["reps"].float()
        return {"flat": reps.flatten(1), "text tokens": reps[:, :text_tokens].flatten(1),
                "image tokens": reps[:, text_tokens:].flatten(1), "mean of all tokens": reps.mean(1),
                "mean of text tokens": reps[:, :text_tokens].mean(1),
                "motion level": F.one_hot(part["levels"], 6).float()}

    a, b = views(train), views(held)
    table: dict[str, dict[str, float]] = {}
    for name in a:
        table[name] = {head: linear_probe(a[name], train["labels"][:, i], b[name], held["labels"][:, i])
                       for i, head in enumerate(("motion", "location", "character"))}
        print(name, table[name], flush=True)
    return table


def diagnose(data_path: Path, out: Path, weights_path: Path | None, variant: Variant, steps: int,
             probes: bool = True) -> dict[str, Any]:
    """Where the motion is lost: linear probes of the decoder's conditioning; then, with a
    trained decoder (``weights_path``, an experiment run's EMA weights), how the judge reads
    its clips against ground truth, ground truth frozen on its first frame and ground truth
    averaged over time (is the confusion "a still picture" or "another motion"?), the
    frame-to-frame change, and how much the clips move when the text tokens of another turn
    are swapped in (does the decoder listen to the motion at all?)."""
    from collections import Counter

    from safetensors.torch import load_file

    from studio.engines.mini.data import MOTION_NAMES
    from studio.engines.mini.decoder import VideoDiT, interpolate_weight, sample

    data = torch.load(data_path)
    train, held = data["train"], data["heldout"]
    text_tokens = ModelConfig().representation.text_tokens
    result: dict[str, Any] = {"probes": probe_table(train, held, text_tokens) if probes else {}}
    if weights_path is not None:
        height, width = data["height"], data["width"]
        frames = len(range(0, data["frames"], variant.frame_step))
        model = VideoDiT(_model(variant, height, width, frames)).eval()
        model.load_state_dict(load_file(str(weights_path)))
        judge = load_judge()
        reps = held["reps"]
        if variant.oracle_motion:
            reps = oracle_text(reps, held["labels"][:, 0], text_tokens)
        truth = held["labels"][:, 0]
        gt = to_float(held["clips"][:, :: variant.frame_step])
        mask = interpolate_weight(held["occupancy"], height, width, 1.0) > 1.5
        noise = torch.randn(gt.shape, generator=torch.Generator().manual_seed(1234))
        # a derangement: each turn gets the text tokens of a turn with another motion
        order = torch.roll(torch.arange(len(truth)), 1)
        for shift in range(1, len(truth)):
            order = torch.roll(torch.arange(len(truth)), shift)
            if bool((truth[order] != truth).all()):
                break
        swapped = reps.clone()
        swapped[:, :text_tokens] = reps[order, :text_tokens]

        def generate(r: torch.Tensor) -> torch.Tensor:
            with torch.no_grad():
                return torch.cat([sample(model, r[s:s + 32], held["levels"][s:s + 32], noise[s:s + 32], steps)
                                  for s in range(0, len(r), 32)])

        def motion_of(clips: torch.Tensor) -> torch.Tensor:
            with torch.no_grad():
                return torch.cat([judge(clips[s:s + 32]).logits["motion"].argmax(1) for s in range(0, len(clips), 32)])

        made, made_swapped = generate(reps), generate(swapped)
        still = gt[:, :, :1].expand_as(gt)
        average = gt.mean(2, keepdim=True).expand_as(gt)
        # degraded ground truth: does the judge still read the motion from clips as coarse or
        # as noisy as the generated ones? (their motion is intact, only the picture is worse)
        noisy = (gt + 0.1 * torch.randn(gt.shape, generator=torch.Generator().manual_seed(5))).clamp(-1, 1)
        read = {name: motion_of(c) for name, c in (("ground truth", gt), ("ground truth, first frame held", still),
                                                   ("ground truth, time average", average),
                                                   ("ground truth, 2 x 2 pixel blocks", blocks(gt, 2)),
                                                   ("ground truth, 4 x 4 pixel blocks", blocks(gt, 4)),
                                                   ("ground truth, 8 x 8 pixel blocks", blocks(gt, 8)),
                                                   ("ground truth + noise 0.1 per frame", noisy),
                                                   ("generated", made),
                                                   ("generated, text tokens swapped", made_swapped))}
        frozen = read["ground truth, first frame held"]
        judged: dict[str, Any] = {}
        for name, r in read.items():
            judged[name] = {"accuracy": float((r == truth).float().mean()),
                            "same as on the frozen first frame": float((r == frozen).float().mean()),
                            "distinct answers": len(set(r.tolist())),
                            "most common": [(MOTION_NAMES[k], n) for k, n in Counter(r.tolist()).most_common(4)]}
        judged["generated, text tokens swapped"]["reads the swapped-in motion"] = float(
            (read["generated, text tokens swapped"] == truth[order]).float().mean())
        first = {name: float((c - c[:, :, :1]).abs().mean()) for name, c in (("ground truth", gt), ("generated", made))}
        result["generated"] = {
            "judge motion": judged,
            "frame change (whole / character region)": {
                "ground truth": [frame_change(gt), frame_change(gt, mask)],
                "generated": [frame_change(made), frame_change(made, mask)],
                "two turns' ground-truth first frames": float((gt[:, :, 0] - gt[order, :, 0]).abs().mean())},
            "distance from the first frame": first,
            # motions move by different amounts (run against sit): a decoder that follows the
            # motion moves more where the ground truth does, even before the judge can tell
            "movement follows ground truth (correlation over clips)": correlation(
                frame_changes(made, mask), frame_changes(gt, mask)),
            "swapped clips' movement follows the swapped-in motion's ground truth": correlation(
                frame_changes(made_swapped, mask), frame_changes(gt[order], mask[order])),
            "swapped clips' movement follows their own ground truth": correlation(
                frame_changes(made_swapped, mask), frame_changes(gt, mask)),
            "swap text tokens: mean |change| of the clip": float((made - made_swapped).abs().mean()),
            "swap text tokens: mean |change| in the character region": float(
                ((made - made_swapped).abs() * mask).sum() / mask.expand_as(made).sum()),
        }
    out.write_text(json.dumps(result, indent=1))
    print(json.dumps(result, indent=1), flush=True)
    return result


def _save_sheet(clips: torch.Tensor, path: Path) -> None:
    """Rows of clips (frames left to right) as a PNG."""
    from PIL import Image

    b, _c, t, h, w = clips.shape
    grid = ((clips.clamp(-1, 1) + 1) * 127.5).round().to(torch.uint8).permute(0, 3, 2, 4, 1).reshape(b * h, t * w, 3)
    Image.fromarray(grid.numpy()).save(path)


def speed(config_name: str, steps: int, repeats: int) -> dict[str, float]:
    """Seconds of one turn (predict + decode at ``steps``) with random weights of a training
    config's model, on this machine's current thread count: the median of ``repeats`` after a
    warm-up, and the decode alone."""
    from studio.engines.mini.decoder import VideoDiT
    from studio.engines.mini.lm import MiniLM
    from studio.engines.mini.runtime import MiniRuntime, TurnQuery
    from studio.engines.mini.tokenizer import Vocab

    model = load_train_config(named_config(config_name)).model
    vocab = Vocab.load(CHECKPOINT / weights.TOKENIZER)
    model = dataclasses.replace(model, vocab_size=vocab.size)
    torch.manual_seed(0)
    cpu = torch.device("cpu")
    latent_decoder = None
    if model.latent is not None:  # a latent decoder's turn includes the autoencoder's decode
        from studio.engines.mini.latent_ae import Decoder

        latent_decoder = Decoder(model.latent)
    runtime = MiniRuntime(model, vocab, MiniLM(model), VideoDiT(model), cpu, cpu, latent_decoder=latent_decoder)
    query = TurnQuery("Qiqi waves happily at the school gate in the evening.", (50, 50, 50))
    turns, decodes = [], []
    for k in range(repeats + 1):
        started = time.perf_counter()
        output = runtime.predict([query])[0]
        middle = time.perf_counter()
        runtime.decode(output.representation[None], [output.level], [k], steps=steps)
        ended = time.perf_counter()
        if k > 0:
            turns.append(ended - started)
            decodes.append(ended - middle)
    result = {"turn_s": sorted(turns)[len(turns) // 2], "decode_s": sorted(decodes)[len(decodes) // 2],
              "threads": float(torch.get_num_threads())}
    print(json.dumps({"config": config_name, "steps": steps, **result}), flush=True)
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m studio.engines.mini.experiment")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--train", type=int, default=400)
    p.add_argument("--heldout", type=int, default=40)
    p.add_argument("--height", type=int, default=64)
    p.add_argument("--width", type=int, default=96)
    p.add_argument("--workers", type=int, default=2)
    r = sub.add_parser("run")
    r.add_argument("--data", type=Path, required=True)
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--tflops", type=float, default=20.0, help="training compute budget (forward + backward)")
    r.add_argument("--variant", default="{}", help="JSON: Variant fields, 'decoder' a dict of DecoderConfig fields")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--sample-steps", type=int, nargs="+", default=[4])
    r.add_argument("--nets", nargs="+", default=["raw", "ema"], choices=["raw", "ema"],
                   help="which weights to sample and score (sampling costs about 0.9 GFLOPs per clip and step)")
    r.add_argument("--latent", type=Path, help="an autoencoder's weights (.safetensors): the DiT works on its latent")
    r.add_argument("--latent-config", default="{}", help="JSON: the autoencoder's LatentConfig fields")
    d = sub.add_parser("diagnose")
    d.add_argument("--data", type=Path, required=True)
    d.add_argument("--out", type=Path, required=True)
    d.add_argument("--weights", type=Path, help="an experiment run's EMA weights (.safetensors)")
    d.add_argument("--variant", default="{}", help="the run's --variant")
    d.add_argument("--steps", type=int, default=4)
    d.add_argument("--no-probes", action="store_true", help="only the trained decoder's part")
    q = sub.add_parser("speed")
    q.add_argument("--config", default="h200_lease5")
    q.add_argument("--steps", type=int, default=4)
    q.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    if args.command == "speed":
        speed(args.config, args.steps, args.repeats)
    elif args.command == "prepare":
        prepare(args.out, args.train, args.heldout, args.height, args.width, args.workers)
    elif args.command == "diagnose":
        diagnose(args.data, args.out, args.weights, _variant(args.variant), args.steps, not args.no_probes)
    else:
        latent = None if args.latent is None else (args.latent, from_dict(LatentConfig, json.loads(args.latent_config)))
        run(args.data, _variant(args.variant), args.tflops, args.out, args.seed, args.sample_steps, tuple(args.nets),
            latent)


def _variant(text: str) -> Variant:
    """A Variant from the command line's JSON, on the reduced decoder the experiments share."""
    fields = json.loads(text)
    base = {"hidden": 128, "layers": 4, "heads": 4, "mlp_ratio": 3.0, "patch": 8, "tpatch": 2, "head_hidden": 256,
            "spatial_rep": True}
    decoder = from_dict(DecoderConfig, base | fields.pop("decoder", {}))
    return Variant(decoder=decoder, **fields)


if __name__ == "__main__":
    main()
