"""The mini engine: our own small model of AnimeGamer's design, trained on the sketch world.

Three parts, as AnimeGamer: a clip encoder (action text + first frame -> a few dozen
representation tokens), a small causal LM with our own tokenizer that reads the branch
and predicts the state tokens and the next clip's representation in one bidirectional
query block, and a small video diffusion decoder that turns a representation and a motion
level into frames. Modules that need torch import it themselves; ``config``, ``data`` and
``tokenizer`` do not.
"""
