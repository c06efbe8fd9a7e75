"""What every table image needs: Pillow's bundled font at any size, and PNG bytes.

The bundled font covers digits and basic Latin letters only, which is all images carry: symbols and
numbers, never sentences, so no per-language font is needed. The one exception is a player's
name (a table picture that shows who sits where): it is drawn with a system font that has
Japanese glyphs when one is installed (Debian: ``fonts-noto-cjk``), and whatever that font cannot
draw (an emoji, or everything without such a font) is left out rather than shown as boxes.
"""

from __future__ import annotations

import contextlib
import contextvars
import io
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageFont

#: A colour as images use it: red, green and blue, 0 to 255.
Colour = tuple[int, int, int]

#: System fonts with Japanese glyphs, by preference; the first one present draws names.
NAME_FONTS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/ipafont-gothic/ipagp.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
    "/usr/share/fonts/truetype/vlgothic/VL-PGothic-Regular.ttf",
)
MISSING = "\U000ffffd"  # a private-use character no font has: how a missing glyph looks


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    face = ImageFont.load_default(size=size)
    if not isinstance(face, ImageFont.FreeTypeFont):  # only a Pillow built without FreeType
        raise RuntimeError("the images need Pillow with FreeType")
    return face


#: What ``png`` gives inside ``unencoded()``: a picture was drawn, and not encoded.
UNENCODED = b"a picture, not encoded"
_encoding: contextvars.ContextVar[bool] = contextvars.ContextVar("encoding", default=True)


@contextlib.contextmanager
def unencoded() -> Iterator[None]:
    """Inside, ``png`` encodes nothing: for a web page, which links its picture rather than holds
    it (encoding is most of a picture's cost, and most pages are read without their picture)."""
    token = _encoding.set(False)
    try:
        yield
    finally:
        _encoding.reset(token)


def encoding() -> bool:
    """Whether ``png`` encodes here (not inside ``unencoded``): part of a cached picture's key."""
    return _encoding.get()


def png(image: Image.Image, compress_level: int = 3) -> bytes:
    """PNG bytes; a low compression level, as images are redrawn on every move."""
    if not _encoding.get():
        return UNENCODED
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=compress_level)
    return out.getvalue()


@lru_cache(maxsize=8)
def name_font(size: int) -> ImageFont.FreeTypeFont:
    for path in NAME_FONTS:
        if Path(path).exists():
            return ImageFont.truetype(path, size)
    return font(size)


def _glyph(face: ImageFont.FreeTypeFont, char: str) -> tuple[tuple[int, int], bytes]:
    mask = face.getmask(char)
    return mask.size, bytes(mask)


def drawable_name(name: str, size: int, width: float) -> tuple[ImageFont.FreeTypeFont, str]:
    """The font for a name and the part of it that font can draw, cut with "…" to ``width`` px."""
    face = name_font(size)
    missing = _glyph(face, MISSING)
    kept = "".join(c for c in name if c.isspace() or _glyph(face, c) != missing)
    text = " ".join(kept.split())
    if face.getlength(text) > width:
        dots = "…" if _glyph(face, "…") != missing else "..."
        while text and face.getlength(text + dots) > width:
            text = text[:-1]
        text = text.rstrip() + dots
    return face, text
