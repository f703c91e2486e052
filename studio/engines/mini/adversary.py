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

With ``first_frame`` it is also shown the turn's true first latent frame (the same for the
real clip, the student's prediction and the real clip told another motion), beside the
canvas's later frames: it then judges whether these frames continue this start as the told
motion does, the motion of this character in this place. The canvas's own first frame is left
out, or a real clip would be told apart by its first frame matching the one shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

from studio.engines.mini.config import AdversaryTraining
from studio.engines.mini.critic import MotionCritic, balanced, with_noise


class Discriminator(nn.Module):
    """A canvas (B, C, T, H, W) and each clip's motion (B,) -> a realness score (B,); with
    ``first_frame``, also each turn's true first frame (B, C, 1, H, W), read beside the
    canvas's later frames."""

    def __init__(self, channels: int, widths: tuple[int, ...], classes: int, first_frame: bool = False) -> None:
        super().__init__()
        self.first_frame = first_frame
        self.trunk = MotionCritic(channels * 2 if first_frame else channels, widths, classes)
        self.real = nn.Linear(widths[-1], 1)
        self.motion = nn.Embedding(classes, widths[-1])
        nn.init.normal_(self.motion.weight, std=0.02)

    def forward(self, canvas: torch.Tensor, motions: torch.Tensor, first: torch.Tensor | None = None) -> torch.Tensor:
        return self.read(canvas, motions, first)[0]

    def read(self, canvas: torch.Tensor, motions: torch.Tensor, first: torch.Tensor | None = None
             ) -> tuple[torch.Tensor, torch.Tensor]:
        """(the realness score (B,), the motion logits of the critic's head (B, classes))."""
        x = self.inputs(canvas, first)
        for level in self.trunk.levels:
            x = level(x)
        pooled = x.mean(dim=(2, 3, 4))
        score = self.real(pooled).squeeze(1) + (self.motion(motions) * pooled).sum(dim=1)
        return score, self.trunk.head(pooled)

    def inputs(self, canvas: torch.Tensor, first: torch.Tensor | None) -> torch.Tensor:
        """What the levels read: the canvas, or (``first_frame``) its frames after the first
        with the true first frame beside each, as more channels."""
        if not self.first_frame:
            return canvas
        if first is None:
            raise ValueError("this discriminator reads each turn's first frame beside the canvas: none was given")
        if canvas.shape[2] < 2:
            raise ValueError("a discriminator of the first frame needs canvases of at least two latent frames")
        later = canvas[:, :, 1:]
        return torch.cat([later, first.expand(-1, -1, later.shape[2], -1, -1).to(later.dtype)], dim=1)

    def start_from(self, critic: MotionCritic) -> None:
        """The critic's levels, and its class weights as the motion projection (the score then
        starts as how strongly the critic reads the told motion). With ``first_frame`` the
        first level's weights on the first frame's channels start at zero: it starts as the
        critic reading the later frames."""
        state = critic.state_dict()
        if self.first_frame:
            key = "levels.0.0.weight"
            wide = torch.zeros_like(self.trunk.state_dict()[key])
            wide[:, : state[key].shape[1]] = state[key]
            state = {**state, key: wide}
        self.trunk.load_state_dict(state)
        with torch.no_grad():
            self.motion.weight.copy_(critic.head.weight)


def other_motions(motions: torch.Tensor, classes: int, generator: torch.Generator | None = None) -> torch.Tensor:
    """Each motion replaced by a different one (uniform among the other ``classes - 1``)."""
    shift = torch.randint(1, classes, motions.shape, generator=generator).to(motions.device)
    return (motions + shift) % classes


def discriminator_loss(disc: Discriminator, real: torch.Tensor, motions: torch.Tensor, fake: torch.Tensor,
                       fake_motions: torch.Tensor, classes: int, noise: float,
                       generator: torch.Generator | None = None, first: torch.Tensor | None = None,
                       fake_first: torch.Tensor | None = None) -> torch.Tensor:
    """Hinge loss: real clips with their motion score above 1; the student's predictions, and
    real clips told another motion, below -1 (those two halves of the negatives weigh equally).
    Plus the motion's cross-entropy on the real clips (as an auxiliary-classifier GAN's): the
    hinge alone can settle where real clips score the same under any motion, a discriminator
    blind to the motion; the classifier keeps its features reading it. ``first`` and
    ``fake_first``: each turn's true first frame, for a discriminator that reads it."""
    right, logits = disc.read(with_noise(real, noise, generator), motions, _noisy(first, noise, generator))
    right = right.float()
    wrong = disc(with_noise(real, noise, generator), other_motions(motions, classes, generator),
                 _noisy(first, noise, generator)).float()
    made = disc(with_noise(fake, noise, generator), fake_motions, _noisy(fake_first, noise, generator)).float()
    negatives = 0.5 * (F.relu(1 + made).mean() + F.relu(1 + wrong).mean())
    return F.relu(1 - right).mean() + negatives + F.cross_entropy(logits.float(), motions)


def _noisy(first: torch.Tensor | None, noise: float, generator: torch.Generator | None) -> torch.Tensor | None:
    """A first frame with noise mixed in as into the canvases (its own draw), or None."""
    return None if first is None else with_noise(first, noise, generator)


def first_frames(real: torch.Tensor, disc: Discriminator) -> torch.Tensor | None:
    """The real canvases' first latent frames (B, C, 1, H, W) when ``disc`` reads them, else None."""
    return real[:, :, :1] if disc.first_frame else None


@dataclass
class Adversary:
    """The adversary's side of one training step: :meth:`begin` with the batch, the loss calls
    :meth:`added_to` for each prediction (each segment's in the distillation, the one flow
    prediction in the decoder's own stages), then (after the decoder's update) :meth:`update`
    trains the discriminator on what the decoder made."""

    disc: Discriminator
    recipe: AdversaryTraining
    optimizer: torch.optim.Optimizer
    classes: int
    real: torch.Tensor | None = None
    motions: torch.Tensor | None = None
    keep: torch.Tensor | None = None
    """(B,) bool: the clips whose prediction is judged (None: all)."""
    active: bool = False
    fakes: list[tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]] = field(default_factory=list)
    """Each judged prediction with its clips' motions and true first frames."""
    last_loss: torch.Tensor | None = None

    @classmethod
    def create(cls, disc: Discriminator, recipe: AdversaryTraining, classes: int) -> Adversary:
        fused = next(disc.parameters()).device.type == "cuda"
        optimizer = torch.optim.AdamW(disc.parameters(), lr=recipe.lr, betas=(0.5, 0.99), weight_decay=0.0,
                                      fused=fused)
        return cls(disc, recipe, optimizer, classes)

    def begin(self, real: torch.Tensor, motions: torch.Tensor, active: bool, keep: torch.Tensor | None = None
              ) -> None:
        """A new batch: the real canvases of its turns, their motions, whether the term counts
        yet; with ``keep``, only those clips' predictions are judged (a prediction made with its
        conditioning dropped, for guidance, cannot know its motion)."""
        self.real, self.motions, self.active, self.keep = real, motions, active, keep
        self.fakes.clear()

    def added_to(self, error: torch.Tensor, prediction: torch.Tensor, scale: torch.Tensor | None = None
                 ) -> torch.Tensor:
        """``error`` (the segment's squared error) plus the adversary's term on ``prediction``,
        weighed by gradients (on the network's output where ``scale`` is given, see
        :func:`.critic.balanced`); the prediction is kept for the discriminator's update."""
        assert self.motions is not None and self.real is not None
        judged, motions, first = prediction, self.motions, first_frames(self.real, self.disc)
        if self.keep is not None:
            judged, motions = prediction[self.keep], motions[self.keep]
            first = None if first is None else first[self.keep]
        if judged.shape[0] == 0:
            return error
        self.fakes.append((judged.detach(), motions, first))
        if not self.active or self.recipe.balance <= 0:
            return error
        self.disc.requires_grad_(False)
        noisy_first = _noisy(first, self.recipe.noise, None)
        term = -self.disc(with_noise(judged, self.recipe.noise), motions, noisy_first).float().mean()
        return balanced(error, term, prediction, self.recipe.balance, scale=scale)

    def update(self, generator: torch.Generator | None = None) -> torch.Tensor:
        """One step of the discriminator on this batch's real canvases and the predictions kept."""
        if self.real is None or self.motions is None or not self.fakes:
            raise RuntimeError("the adversary's update needs a batch: begin() and the student's loss first")
        self.disc.requires_grad_(True)
        fake = torch.cat([made for made, _motions, _first in self.fakes])
        fake_motions = torch.cat([motions for _made, motions, _first in self.fakes])
        first = first_frames(self.real, self.disc)
        fake_first = None if first is None else torch.cat([f for _m, _n, f in self.fakes if f is not None])
        loss = discriminator_loss(self.disc, self.real, self.motions, fake, fake_motions, self.classes,
                                  self.recipe.noise, generator, first=first, fake_first=fake_first)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()  # type: ignore[no-untyped-call]
        torch.nn.utils.clip_grad_norm_(list(self.disc.parameters()), 1.0)
        self.optimizer.step()
        self.fakes.clear()
        self.last_loss = loss.detach()
        return self.last_loss
