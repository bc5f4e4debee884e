"""PNG bytes of raw 8-bit pixels, written directly.

Every row unfiltered (filter type 0) and the whole deflated once: Pillow's encoder tries a filter per
row, which took about half of an embedded picture's parse time and saved a few percent of its size.
Deflated by ISA-L (``isal``), whose level 2 took 2.5 ms where zlib's level 3 took 19 ms on the real
catalogs' embedded pictures (1.6 MB of pixels each), for 6 % more bytes; its output is a zlib stream.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np
from isal import isal_zlib

COLOUR_TYPES = {1: 0, 2: 4, 3: 2, 4: 6}  # samples per pixel → gray, gray+alpha, RGB, RGBA
SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_bytes(samples: bytes, width: int, height: int, channels: int, level: int) -> bytes:
    """``samples``: ``height`` rows of ``width`` × ``channels`` bytes, no padding (a MuPDF pixmap's)."""
    rows = np.zeros((height, width * channels + 1), dtype=np.uint8)  # column 0: each row's filter byte
    rows[:, 1:] = np.frombuffer(samples, dtype=np.uint8).reshape(height, width * channels)
    header = struct.pack(">IIBBBBB", width, height, 8, COLOUR_TYPES[channels], 0, 0, 0)
    return (SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", isal_zlib.compress(rows.tobytes(), level))
            + _chunk(b"IEND", b""))
