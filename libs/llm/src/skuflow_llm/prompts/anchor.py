"""Document anchoring (seed-002 §8.5): the page's text with its coordinates, so the model reads what is
printed instead of guessing from the screenshot. The first 50 blocks in reading position (y, then x).
"""

from __future__ import annotations

from collections.abc import Sequence

from skuflow_llm.context import TextBlockLike
from skuflow_llm.guard import escape_xml


class DocumentAnchorBuilder:
    def __init__(self, max_blocks: int = 50) -> None:
        self.max_blocks = max_blocks

    def build(self, blocks: Sequence[TextBlockLike]) -> str:
        ordered = sorted(blocks, key=lambda block: (block.bbox[1], block.bbox[0]))[: self.max_blocks]
        return "\n".join(f"<text y='{block.bbox[1]:.0f}' x='{block.bbox[0]:.0f}'>{text}</text>"
                         for block in ordered if (text := escape_xml(block.text.strip())))
