"""CustomX's previews while a clip is denoised (see :mod:`studio.engines.latent_preview`).

HunyuanCustom decodes with HunyuanVideo's VAE, whose latent-to-RGB weights are published
(the preview tables of the common video tools); they apply to the latents the sampler works
on (scaled by the VAE's scaling factor). Other VAEs (the tiny random ones of the tests)
get weights fitted to the VAE itself.
"""

from __future__ import annotations

from studio.engines.latent_preview import LatentToRGB

HUNYUAN_VIDEO = LatentToRGB.of(
    factors=(
        (-0.0395, -0.0331, 0.0445),
        (0.0696, 0.0795, 0.0518),
        (0.0135, -0.0945, -0.0282),
        (0.0108, -0.0250, -0.0765),
        (-0.0209, 0.0032, 0.0224),
        (-0.0804, -0.0254, -0.0639),
        (-0.0991, 0.0271, -0.0669),
        (-0.0646, -0.0422, -0.0400),
        (-0.0696, -0.0595, -0.0894),
        (-0.0799, -0.0208, -0.0375),
        (0.1166, 0.1627, 0.0962),
        (0.1165, 0.0432, 0.0407),
        (-0.2315, -0.1920, -0.1355),
        (-0.0270, 0.0401, -0.0821),
        (-0.0616, -0.0997, -0.0727),
        (0.0249, -0.0469, -0.1703),
    ),
    bias=(0.0259, -0.0192, -0.0761),
)
"""HunyuanVideo's VAE (16 latent channels, scaling factor 0.476986): channel -> (R, G, B)."""

HUNYUAN_SCALING_FACTOR = 0.476986
