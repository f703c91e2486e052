"""CustomX (AniX): any character from four reference views, in any world given as a scene
clip, continuing clip to clip, on HunyuanVideo components from diffusers and transformers.

Modules: ``sizes`` (model dimensions, released and tiny), ``transformer`` (HunyuanCustom's
transformer on diffusers' blocks, with the reference-view tokens and the scene path),
``prompt`` and ``text`` (the LLaVA-Llama-3 prompt and encoders), ``media`` (views, scene and
previous clips as arrays), ``sampler`` (flow-matching Euler with guidance, continuation and
step reuse), ``convert`` (released files to our safetensors), ``engine`` (protocol v2).
"""
