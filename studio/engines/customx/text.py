"""CustomX's text encoders: LLaVA-Llama-3-8B (with the four views) and CLIP-L's text model.

``LlavaEncoder`` is composed of transformers' ``LlamaModel`` (``llm``), ``CLIPVisionModel``
(``vision``) and LLaVA's two-layer projector (``projector``). A view becomes the vision
tower's second-to-last hidden states without the class token, projected: 576 embeddings
that replace the 576 image ids the prompt was expanded to (see ``prompt``). The output is
the third-from-last hidden state of the language model, cropped after the template's
system part. ``pooled`` is CLIP-L's pooled output of the plain sentence.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn

from studio.engines.customx.prompt import PromptTokens
from studio.engines.customx.sizes import TextSize

CLIP_MEAN = (0.48145466, 0.4578275, 0.40821073)
CLIP_STD = (0.26862954, 0.26130258, 0.27577711)


class Projector(nn.Module):
    def __init__(self, vision: int, hidden: int) -> None:
        super().__init__()
        self.linear_1 = nn.Linear(vision, hidden)
        self.act = nn.GELU()
        self.linear_2 = nn.Linear(hidden, hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.linear_2(self.act(self.linear_1(x)))
        return out


class LlavaEncoder(nn.Module):
    def __init__(self, size: TextSize, vocab: int) -> None:
        super().__init__()
        from transformers import CLIPVisionConfig, CLIPVisionModel, LlamaConfig, LlamaModel

        self.size = size
        llama: dict[str, Any] = dict(
            vocab_size=vocab, hidden_size=size.hidden, intermediate_size=size.intermediate,
            num_hidden_layers=size.layers, num_attention_heads=size.heads, num_key_value_heads=size.kv_heads,
            rms_norm_eps=1e-5, rope_parameters={"rope_type": "default", "rope_theta": size.rope_theta},
            max_position_embeddings=8192, attn_implementation="sdpa")
        self.llm = LlamaModel(LlamaConfig(**llama))
        vision: dict[str, Any] = dict(
            hidden_size=size.vision_hidden, intermediate_size=size.vision_intermediate,
            num_hidden_layers=size.vision_layers, num_attention_heads=size.vision_heads,
            image_size=size.image_size, patch_size=size.patch, hidden_act="quick_gelu",
            attn_implementation="sdpa")
        self.vision = CLIPVisionModel(CLIPVisionConfig(**vision))
        self.projector = Projector(size.vision_hidden, size.hidden)

    def image_features(self, pixels: torch.Tensor) -> torch.Tensor:
        """N x 3 x S x S normalised views -> N x tokens x hidden."""
        states = self.vision(pixel_values=pixels, output_hidden_states=True).hidden_states[-2][:, 1:]
        return self.projector(states)  # type: ignore[no-any-return]

    def forward(self, prompts: list[PromptTokens], pixels: torch.Tensor | None) -> tuple[torch.Tensor, torch.Tensor]:
        """Cropped hidden states (B x L x D) and their mask (B x L)."""
        device = self.projector.linear_1.weight.device
        ids = torch.tensor([p.ids for p in prompts], device=device)
        mask = torch.tensor([p.mask for p in prompts], device=device)
        embeds = self.llm.embed_tokens(ids)
        if pixels is not None:
            features = self.image_features(pixels.to(device, embeds.dtype))  # V x N x D, the same views each row
            flat = features.reshape(-1, features.shape[-1])
            for row, prompt in enumerate(prompts):
                where = (ids[row] == prompt.image_token).nonzero().squeeze(1)
                if where.numel() != flat.shape[0]:
                    raise ValueError(f"the prompt holds {where.numel()} image tokens for {flat.shape[0]} "
                                     f"image embeddings")
                embeds[row, where] = flat.to(embeds.dtype)
        # The attention mask keeps padding out; masked image tokens of the unconditional
        # prompt are still attended by the language model (as the reference encodes them) but
        # masked for the transformer.
        language_mask = torch.tensor([[1 if (m or i == p.image_token) else 0 for i, m in zip(p.ids, p.mask,
                                       strict=True)] for p in prompts], device=device)
        out = self.llm(inputs_embeds=embeds, attention_mask=language_mask, output_hidden_states=True)
        hidden = out.hidden_states[-(self.size.skip_layers + 1)]
        crop = prompts[0].crop_start
        return hidden[:, crop:], mask[:, crop:]


class ClipTextEncoder(nn.Module):
    def __init__(self, size: TextSize, vocab: int, eos: int, pad: int) -> None:
        super().__init__()
        from transformers import CLIPTextConfig, CLIPTextModel

        clip: dict[str, Any] = dict(
            vocab_size=vocab, hidden_size=size.clip_hidden, intermediate_size=size.clip_intermediate,
            num_hidden_layers=size.clip_layers, num_attention_heads=size.clip_heads,
            max_position_embeddings=size.clip_positions, eos_token_id=eos, pad_token_id=pad,
            bos_token_id=0, hidden_act="quick_gelu", attn_implementation="sdpa")
        self.model = CLIPTextModel(CLIPTextConfig(**clip))

    def forward(self, tokenizer: Any, sentences: list[str]) -> torch.Tensor:
        device = next(self.model.parameters()).device
        enc = tokenizer(sentences, truncation=True, max_length=self.model.config.max_position_embeddings,
                        padding="max_length", return_tensors="pt")
        out = self.model(input_ids=enc["input_ids"].to(device), attention_mask=enc["attention_mask"].to(device))
        return out.pooler_output  # type: ignore[no-any-return]


def view_pixels(views: np.ndarray, size: int) -> torch.Tensor:
    """V x H x W x 3 uint8 views -> V x 3 x size x size, CLIP-normalised (shorter side resized,
    centre cropped, as CLIP's image processor does)."""
    from PIL import Image

    out = []
    for view in views:
        image = Image.fromarray(view)
        scale = size / min(image.size)
        image = image.resize((max(size, round(image.width * scale)), max(size, round(image.height * scale))),
                             Image.Resampling.BICUBIC)
        left, top = (image.width - size) // 2, (image.height - size) // 2
        array = np.asarray(image.crop((left, top, left + size, top + size)), dtype=np.float32) / 255.0
        out.append((array - np.asarray(CLIP_MEAN, np.float32)) / np.asarray(CLIP_STD, np.float32))
    return torch.from_numpy(np.stack(out)).permute(0, 3, 1, 2).contiguous()
