"""The AnimeGamer engine: TencentARC's released model on transformers, peft and diffusers.

Light modules (no torch at import): :mod:`.sizes` (model dimensions), :mod:`.tokens` (prompt
building), :mod:`.grammar` (state tokens), :mod:`.released` (where the released keys go),
:mod:`.plan` and :mod:`.doctor`. Our checkpoint layout is in the catalogue
(``studio.engines.catalog.animegamer_layout``), so that listing and checking the engine
imports nothing of this package.
Everything else imports torch and is loaded only when the engine is created or a
checkpoint command runs. See docs/ANIMEGAMER.md for the design.
"""
