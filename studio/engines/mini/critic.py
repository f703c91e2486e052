"""The motion critic: a small classifier of the motion on the decoder's canvas, used as a
training signal for the decoder (never by the engine, never in the evaluation).

Why: the decoder's flow loss is a squared error over the whole canvas. The motion is a
change of a few pixels in a sprite about forty pixels tall, so the loss barely asks for it,
and at the noisy times where the sampler settles the motion the best guess under that loss
is a soft average pose. The critic, trained once on the training clips' latents (the
``critic`` stage) and then frozen, reads the motion from a canvas; the decoder's stages add a
term that asks the critic to read the turn's motion in the decoder's clean-canvas prediction
and to see in it the features it sees in the true clip. It is a perceptual loss whose network
was trained for the property the squared error misses (as LPIPS uses a classifier's features).

Its size in the loss is set each step from the gradients (as VQGAN weighs its adversarial
term): the critic term's gradient on the prediction is ``balance`` times the squared
error's, so neither the critic's scale nor its confidence decides how much it counts.

The critic is trained on the canvas with noise mixed in (up to ``noise``), so that its
gradients follow the clip's content rather than single latent cells. It is separate from the
evaluation's judge (another network, on pixels, trained on its own), which therefore still
measures the motion independently.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

from studio.engines.mini.config import CriticTraining


def _block(inputs: int, outputs: int, stride: tuple[int, int, int]) -> nn.Sequential:
    return nn.Sequential(nn.Conv3d(inputs, outputs, 3, stride=stride, padding=1),
                         nn.GroupNorm(8, outputs), nn.SiLU())


class MotionCritic(nn.Module):
    """3-D convolutions over a canvas (B, C, T, H, W) -> (motion logits, features per level)."""

    def __init__(self, channels: int, widths: tuple[int, ...], classes: int) -> None:
        super().__init__()
        if len(widths) < 2:
            raise ValueError("the critic needs at least two widths")
        strides = [(1, 1, 1), (1, 2, 2)] + [(2, 2, 2)] * (len(widths) - 2)
        layers = []
        inputs = channels
        for width, stride in zip(widths, strides, strict=True):
            layers.append(_block(inputs, width, stride))
            inputs = width
        self.levels = nn.ModuleList(layers)
        self.head = nn.Linear(inputs, classes)

    def forward(self, canvas: torch.Tensor) -> tuple[torch.Tensor, list[torch.Tensor]]:
        features = []
        x = canvas
        for level in self.levels:
            x = level(x)
            features.append(x)
        return self.head(x.mean(dim=(2, 3, 4))), features


def training_loss(critic: MotionCritic, canvas: torch.Tensor, motions: torch.Tensor, noise: float,
                  generator: torch.Generator | None = None) -> torch.Tensor:
    """The critic's own loss: the motion's cross-entropy on canvases with Gaussian noise mixed
    in (``canvas * (1 - s) + noise * s``, ``s`` uniform up to ``noise``, per clip)."""
    logits, _features = critic(with_noise(canvas, noise, generator))
    return F.cross_entropy(logits.float(), motions)


def with_noise(canvas: torch.Tensor, noise: float, generator: torch.Generator | None = None) -> torch.Tensor:
    """``canvas * (1 - s) + noise * s`` with ``s`` uniform up to ``noise``, drawn per clip."""
    share = torch.rand(canvas.shape[0], generator=generator).to(canvas.device) * noise
    share = share[:, None, None, None, None]
    return canvas * (1 - share) + torch.randn_like(canvas) * share


@torch.no_grad()
def accuracy(critic: MotionCritic, canvases: torch.Tensor, motions: torch.Tensor, batch: int = 256) -> float:
    """Share of ``canvases`` whose motion the critic reads right."""
    right = 0
    for start in range(0, canvases.shape[0], batch):
        logits, _features = critic(canvases[start:start + batch])
        right += int((logits.argmax(dim=1) == motions[start:start + batch]).sum())
    return right / max(1, canvases.shape[0])


@dataclass
class CriticTerm:
    """What the decoder's loss needs to add the critic's term for one batch."""

    critic: MotionCritic
    motions: torch.Tensor
    """(B,) each clip's motion."""
    keep: torch.Tensor
    """(B,) bool: the clips whose conditioning was kept (the others, dropped for guidance,
    cannot know their motion and are not asked for it)."""
    recipe: CriticTraining

    def loss(self, prediction: torch.Tensor, target: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        """Cross-entropy of the turn's motion read from ``prediction`` (the kept clips) plus
        ``feature_weight`` x the critic's features of the prediction against the target's
        (each level's squared error over the target's mean square, weighted by the flow time
        ``t``: near noise the target's details are not yet decided)."""
        logits, features = self.critic(prediction)
        with torch.no_grad():
            _logits, truth = self.critic(target)
        keep = self.keep.float()
        motion = F.cross_entropy(logits.float(), self.motions, reduction="none")
        motion = (motion * keep).sum() / keep.sum().clamp(min=1)
        if self.recipe.feature_weight <= 0:
            return motion
        matched = torch.zeros((), device=prediction.device)
        for mine, theirs in zip(features, truth, strict=True):
            error = ((mine.float() - theirs.float()) ** 2).mean(dim=(1, 2, 3, 4))
            matched = matched + (error * t.float()).mean() / theirs.float().pow(2).mean().clamp(min=1e-6)
        return motion + self.recipe.feature_weight * matched / len(features)

    def added_to(self, reconstruction: torch.Tensor, prediction: torch.Tensor, target: torch.Tensor,
                 t: torch.Tensor, scale: torch.Tensor | None = None) -> torch.Tensor:
        """``reconstruction`` (a loss on ``prediction``) with this term added, weighed by
        :func:`balanced` (unchanged when the recipe's balance is 0)."""
        if self.recipe.balance <= 0:
            return reconstruction
        return balanced(reconstruction, self.loss(prediction, target, t), prediction, self.recipe.balance, scale=scale)


def balanced(reconstruction: torch.Tensor, term: torch.Tensor, prediction: torch.Tensor, balance: float,
             most: float = 1e4, scale: torch.Tensor | None = None) -> torch.Tensor:
    """``reconstruction + w * term`` with ``w`` chosen so that the term's gradient on
    ``prediction`` has ``balance`` times the norm of the reconstruction's (``w`` is a constant
    for the backward pass, at most ``most``).

    ``scale`` (broadcast over ``prediction``): what the prediction moves per unit of the
    network's own output, where that differs by sample (a preconditioned decoder's ``c_out(t)``):
    the norms are then those of the gradients on the network's output. On the prediction, the
    reconstruction's gradient near the clip is ``1 / c_out`` times larger and would make the
    term far stronger than ``balance`` where the network's output counts most."""
    mine = torch.autograd.grad(reconstruction, prediction, retain_graph=True)[0]
    theirs = torch.autograd.grad(term, prediction, retain_graph=True)[0]
    if scale is not None:
        mine, theirs = mine * scale, theirs * scale
    weight = (balance * mine.norm() / theirs.norm().clamp(min=1e-12)).clamp(max=most).detach()
    total: torch.Tensor = reconstruction + weight * term
    return total
