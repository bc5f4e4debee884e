"""Perceptual hash of a picture (dHash): near-identical images differ in few bits."""

from __future__ import annotations

import io

from PIL import Image, UnidentifiedImageError

HASH_WIDTH, HASH_HEIGHT = 9, 8


def dhash(data: bytes) -> str | None:
    """64-bit difference hash as 16 hex digits; None for bytes Pillow cannot read."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.draft("L", (HASH_WIDTH * 8, HASH_HEIGHT * 8))  # a JPEG decodes at 1/8 scale: the hash needs 9x8
            return picture_dhash(image)
    except (UnidentifiedImageError, OSError, ValueError):
        return None


def picture_dhash(image: Image.Image) -> str:
    """The difference hash of pixels already decoded (a picture converted to PNG is not decoded twice)."""
    pixels = list(image.convert("L").resize((HASH_WIDTH, HASH_HEIGHT), Image.Resampling.BILINEAR).tobytes())
    bits = 0
    for row in range(HASH_HEIGHT):
        for col in range(HASH_WIDTH - 1):
            left = pixels[row * HASH_WIDTH + col]
            bits = (bits << 1) | int(left > pixels[row * HASH_WIDTH + col + 1])
    return f"{bits:016x}"
