"""Finding the one font the images use: DejaVu Sans (Latin, Cyrillic, accents), else Pillow's built-in font.

Images carry numbers, a few words in the bot's languages and players' names; DejaVu covers Latin with
accents and Cyrillic. `put_text` draws text from cached masks, which boards need for speed. This module
reads no environment variables and runs no subprocesses: callers that know a better path pass it in.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

#: Where fonts-dejavu-core (Debian/Ubuntu), Fedora, Arch and Homebrew put DejaVu Sans.
COMMON_PATHS: tuple[str, ...] = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/local/share/fonts/DejaVuSans.ttf",
    "/opt/homebrew/share/fonts/DejaVuSans.ttf",
)
BOLD_NAME = "DejaVuSans-Bold.ttf"

_configured: str | None = None  # set once at start-up from the bot's settings, see `set_font_path`


class FontNotFound(ValueError):
    """A configured font file that does not exist."""


def set_font_path(path: str | None) -> None:
    """Use the font file at `path` for all images (None: back to DejaVu Sans from the system).

    Call it at start-up, before rendering; `renderer.use_font` also empties the caches of drawn parts.
    """
    global _configured
    if path is not None and not Path(path).is_file():
        raise FontNotFound(f"font file {path!r} does not exist; install fonts-dejavu-core or fix the path")
    _configured = path
    load_font.cache_clear()
    text_sprite.cache_clear()
    text_width.cache_clear()


def find_font(path: str | None = None, *, bold: bool = False) -> str | None:
    """The first usable font file: `path`, else the configured one, then the common DejaVu locations."""
    chosen = path or _configured
    candidates = [chosen] if chosen else []
    for common in COMMON_PATHS:
        candidates.append(str(Path(common).with_name(BOLD_NAME)) if bold else common)
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return candidate
    return None


@lru_cache(maxsize=64)
def load_font(size: int, path: str | None = None, *, bold: bool = False) -> Font:
    """A font of `size` pixels: `path`, else DejaVu Sans from the system, else Pillow's built-in font.

    Cached, so asking again for the same size costs nothing.
    """
    if size < 1:
        raise ValueError(f"font size must be at least 1 pixel, not {size}")
    found = find_font(path, bold=bold)
    if found is not None:
        return ImageFont.truetype(found, size)
    try:
        # FreeType's own search (the current directory and the platform's font folders).
        return ImageFont.truetype("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", size)
    except OSError:
        return ImageFont.load_default(size)


@lru_cache(maxsize=2048)
def text_sprite(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    """`text` in bold at `size` as a coverage mask (mode "L"), with the offset from the anchor point to its corner.

    Boards draw the same few words and numbers over and over (counts, sizes, labels); rendering each
    through FreeType once and pasting it afterwards is several times faster. A mask, not a coloured sprite:
    one byte a pixel, one entry whatever the colour (a worker keeps hundreds: every game's header names its
    players).
    """
    font = load_font(size, bold=True)
    left, top, right, bottom = (int(v) for v in font.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255, anchor=anchor)
    return mask, left, top


def put_text(
    image: Image.Image, xy: tuple[int, int], text: str, size: int, colour: tuple[int, int, int], anchor: str = "la"
) -> None:
    """Draw `text` (bold, `size` px) on `image` like `ImageDraw.text` with `anchor`, from a cached mask."""
    mask, left, top = text_sprite(text, size, anchor)
    x, y = xy[0] + left, xy[1] + top
    image.paste(colour, (x, y, x + mask.width, y + mask.height), mask)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> float:
    """The advance width of `text` in bold at `size` px."""
    return load_font(size, bold=True).getlength(text)
