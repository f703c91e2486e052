"""AnimeGamer's tokenizer files checked one by one (the check lives in the catalogue, which
the engine's availability check reads: :mod:`studio.engines.catalog.animegamer_tokenizer`)."""

from __future__ import annotations

from studio.engines.catalog.animegamer_tokenizer import tokenizer_problem

__all__ = ["tokenizer_problem"]
