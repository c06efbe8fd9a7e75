"""What every table image needs: Pillow's bundled font at any size, and PNG bytes.

The bundled font covers digits and Latin letters only, which is all images carry: symbols and
numbers, never sentences, so no per-language font is needed.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageFont


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def png(image: Image.Image, compress_level: int = 3) -> bytes:
    """PNG bytes; a low compression level, as images are redrawn on every move."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=compress_level)
    return out.getvalue()
