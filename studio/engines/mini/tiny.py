"""A tiny mini checkpoint with random weights, for tests (as diffusers' pipeline tests build
tiny random models): the real file layout and loading path, at toy size."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import torch

from studio.engines.mini import weights
from studio.engines.mini.config import load_train_config, named_config
from studio.engines.mini.critic import MotionCritic
from studio.engines.mini.data import MOTION_NAMES, EpisodeMaker, Split
from studio.engines.mini.decoder import VideoDiT
from studio.engines.mini.encoder import ClipEncoder
from studio.engines.mini.judge import Judge
from studio.engines.mini.latent_ae import VideoAutoencoder
from studio.engines.mini.lm import MiniLM
from studio.engines.mini.tokenizer import corpus, train_tokenizer


def write_tiny_checkpoint(folder: Path, seed: int = 0, episodes: int = 6, config_name: str = "tiny",
                          critic: bool = False) -> Path:
    """Write ``folder`` (config.json, tokenizer.json and every weight file) and return it;
    ``config_name`` ``tiny_latent`` makes a latent decoder (with the autoencoder's files);
    ``critic`` adds a motion critic (which the engine uses to pick among candidate clips)."""
    config = load_train_config(named_config(config_name))
    maker = EpisodeMaker(dataclasses.replace(config.data, turns=2), config.model.video)
    texts = [turn.text for i in range(episodes) for turn in maker.make(Split.TRAIN, i).turns]
    tokenizer = train_tokenizer(corpus(texts), config.model.vocab_size)
    model = dataclasses.replace(config.model, vocab_size=tokenizer.get_vocab_size())
    torch.manual_seed(seed)
    autoencoder = VideoAutoencoder(model.latent) if model.latent is not None else None
    motion_critic = None
    if critic:
        model = dataclasses.replace(model, critic=(8, 16))
        motion_critic = MotionCritic(model.canvas()[0], model.critic, len(MOTION_NAMES))
    weights.save_checkpoint(folder, model, tokenizer.to_str(), lm=MiniLM(model), decoder=VideoDiT(model),
                            encoder=ClipEncoder(model), judge=Judge(model.judge), autoencoder=autoencoder,
                            critic=motion_critic, training={"note": "tiny random weights for tests"})
    return folder
