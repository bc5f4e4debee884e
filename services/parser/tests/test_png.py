import io

import pytest
from PIL import Image

from skuflow_parser.backends.png import png_bytes


@pytest.mark.parametrize("mode", ["L", "LA", "RGB", "RGBA"])
def test_png_reads_back_as_the_same_pixels(mode: str) -> None:
    channels = len(mode)
    width, height = 7, 5  # odd sizes: a row's bytes are not a multiple of anything convenient
    samples = bytes((x * 37 + y * 11 + c * 5) % 256
                    for y in range(height) for x in range(width) for c in range(channels))
    with Image.open(io.BytesIO(png_bytes(samples, width, height, channels, 3))) as image:
        assert image.mode == mode and image.size == (width, height)
        assert image.tobytes() == samples
