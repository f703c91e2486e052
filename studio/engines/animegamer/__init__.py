"""The AnimeGamer engine: TencentARC's released model on transformers, peft and diffusers.

Light modules (no torch at import): :mod:`.sizes` (model dimensions), :mod:`.layout` (our
checkpoint files), :mod:`.tokens` (prompt building) and :mod:`.grammar` (state tokens).
Everything else imports torch and is loaded only when the engine is created or a
checkpoint command runs. See docs/ANIMEGAMER.md for the design.
"""
