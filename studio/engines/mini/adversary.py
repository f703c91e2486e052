"""The distillation's adversary: a discriminator of latent canvases, told the turn's motion,
that learns to tell the training clips from the student's predictions, and the term that asks
the student for predictions it cannot tell apart (adversarial diffusion distillation, on the
latent canvas, conditioned on the motion by projection).

Why: the squared-error distillation (:mod:`.distill`) copies its teacher, and the 4-step
student already reads what its teacher reads (lease 21 in docs/mini/TRAINING_LOG.md), so it
cannot go past it. The motion is decided in the first, noisiest steps, where the best guess
under a squared error is a soft average of the poses a motion may take: a figure where the
average clip has it, limbs blurred. No training clip of the motion looks like that average,
so a discriminator that compares the student's clean-canvas predictions with real clips of the
same motion penalises it, which no regression target can.

What it sees: real canvases are the training clips' latents (the turns whose LM predictions
the batch distils, so each comes with its true motion); fakes are the student's predictions at
every segment. A real clip shown with another motion is a fake too (a matching-aware
discriminator), so it cannot ignore the motion it is told. Noise is mixed into everything it
reads, as into the motion critic's inputs, so that it judges a clip's content rather than single
latent cells. It starts from the trained motion critic (its levels, and the critic's class
weights as the motion projection), so from its first step it knows what each motion looks like.

Its term is weighed from the gradients, as the critic's is (:func:`.critic.balanced`), and stays
off for a few warm-up steps while only the discriminator trains.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

from studio.engines.mini.config import AdversaryTraining
from studio.engines.mini.critic import MotionCritic, balanced, with_noise


class Discriminator(nn.Module):
    """A canvas (B, C, T, H, W) and each clip's motion (B,) -> a realness score (B,)."""

    def __init__(self, channels: int, widths: tuple[int, ...], classes: int) -> None:
        super().__init__()
        self.trunk = MotionCritic(channels, widths, classes)
        self.real = nn.Linear(widths[-1], 1)
        self.motion = nn.Embedding(classes, widths[-1])
        nn.init.normal_(self.motion.weight, std=0.02)

    def forward(self, canvas: torch.Tensor, motions: torch.Tensor) -> torch.Tensor:
        return self.read(canvas, motions)[0]

    def read(self, canvas: torch.Tensor, motions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(the realness score (B,), the motion logits of the critic's head (B, classes))."""
        x = canvas
        for level in self.trunk.levels:
            x = level(x)
        pooled = x.mean(dim=(2, 3, 4))
        score = self.real(pooled).squeeze(1) + (self.motion(motions) * pooled).sum(dim=1)
        return score, self.trunk.head(pooled)

    def start_from(self, critic: MotionCritic) -> None:
        """The critic's levels, and its class weights as the motion projection (the score then
        starts as how strongly the critic reads the told motion)."""
        self.trunk.load_state_dict(critic.state_dict())
        with torch.no_grad():
            self.motion.weight.copy_(critic.head.weight)


def other_motions(motions: torch.Tensor, classes: int, generator: torch.Generator | None = None) -> torch.Tensor:
    """Each motion replaced by a different one (uniform among the other ``classes - 1``)."""
    shift = torch.randint(1, classes, motions.shape, generator=generator).to(motions.device)
    return (motions + shift) % classes


def discriminator_loss(disc: Discriminator, real: torch.Tensor, motions: torch.Tensor, fake: torch.Tensor,
                       fake_motions: torch.Tensor, classes: int, noise: float,
                       generator: torch.Generator | None = None) -> torch.Tensor:
    """Hinge loss: real clips with their motion score above 1; the student's predictions, and
    real clips told another motion, below -1 (those two halves of the negatives weigh equally).
    Plus the motion's cross-entropy on the real clips (as an auxiliary-classifier GAN's): the
    hinge alone can settle where real clips score the same under any motion, a discriminator
    blind to the motion; the classifier keeps its features reading it."""
    right, logits = disc.read(with_noise(real, noise, generator), motions)
    right = right.float()
    wrong = disc(with_noise(real, noise, generator), other_motions(motions, classes, generator)).float()
    made = disc(with_noise(fake, noise, generator), fake_motions).float()
    negatives = 0.5 * (F.relu(1 + made).mean() + F.relu(1 + wrong).mean())
    return F.relu(1 - right).mean() + negatives + F.cross_entropy(logits.float(), motions)


@dataclass
class Adversary:
    """The adversary's side of one distillation step: :meth:`begin` with the batch, the
    student's loss calls :meth:`added_to` for each segment's prediction, then (after the
    student's update) :meth:`update` trains the discriminator on what the student made."""

    disc: Discriminator
    recipe: AdversaryTraining
    optimizer: torch.optim.Optimizer
    classes: int
    real: torch.Tensor | None = None
    motions: torch.Tensor | None = None
    active: bool = False
    fakes: list[torch.Tensor] = field(default_factory=list)
    last_loss: torch.Tensor | None = None

    @classmethod
    def create(cls, disc: Discriminator, recipe: AdversaryTraining, classes: int) -> Adversary:
        fused = next(disc.parameters()).device.type == "cuda"
        optimizer = torch.optim.AdamW(disc.parameters(), lr=recipe.lr, betas=(0.5, 0.99), weight_decay=0.0,
                                      fused=fused)
        return cls(disc, recipe, optimizer, classes)

    def begin(self, real: torch.Tensor, motions: torch.Tensor, active: bool) -> None:
        """A new batch: the real canvases of its turns, their motions, whether the term counts yet."""
        self.real, self.motions, self.active = real, motions, active
        self.fakes.clear()

    def added_to(self, error: torch.Tensor, prediction: torch.Tensor) -> torch.Tensor:
        """``error`` (the segment's squared error) plus the adversary's term on ``prediction``,
        weighed by gradients; the prediction is kept for the discriminator's update."""
        assert self.motions is not None
        self.fakes.append(prediction.detach())
        if not self.active or self.recipe.balance <= 0:
            return error
        self.disc.requires_grad_(False)
        term = -self.disc(with_noise(prediction, self.recipe.noise), self.motions).float().mean()
        return balanced(error, term, prediction, self.recipe.balance)

    def update(self, generator: torch.Generator | None = None) -> torch.Tensor:
        """One step of the discriminator on this batch's real canvases and the predictions kept."""
        if self.real is None or self.motions is None or not self.fakes:
            raise RuntimeError("the adversary's update needs a batch: begin() and the student's loss first")
        self.disc.requires_grad_(True)
        fake = torch.cat(self.fakes)
        fake_motions = self.motions.repeat(len(self.fakes))
        loss = discriminator_loss(self.disc, self.real, self.motions, fake, fake_motions, self.classes,
                                  self.recipe.noise, generator)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()  # type: ignore[no-untyped-call]
        torch.nn.utils.clip_grad_norm_(list(self.disc.parameters()), 1.0)
        self.optimizer.step()
        self.fakes.clear()
        self.last_loss = loss.detach()
        return self.last_loss
