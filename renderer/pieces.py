"""Piece sprites: small anti-aliased RGBA images of pieces, drawn once per size and theme and then pasted.

Team A pieces are discs with a light rim, team B pieces rounded squares with a dark rim, so team is told
by shape as well as colour. A top piece carries a pointer on the side it travels to, and in team games
its seat number. Pieces under the top are flat slices: a captive (enemy) slice is striped, a freed
compatriot (own team) slice is plain. Sprites are drawn at four times their size and reduced, which
gives smooth edges at the cost of drawing each sprite once.
This module draws sprites only; placing them is `board.py`'s job.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from .fonts import load_font
from .theme import RGB, SEAT_COLOURS, get_theme

SS = 4  # supersampling factor


def _rim(team: str, theme: str) -> RGB:
    t = get_theme(theme)
    return t.rim_a if team == "A" else t.rim_b


def _body(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], team: str, fill: RGB, rim: RGB, w: int) -> None:
    if team == "A":
        draw.ellipse(box, fill=fill, outline=rim, width=w)
    else:
        radius = (box[2] - box[0]) // 4
        draw.rounded_rectangle(box, radius=radius, fill=fill, outline=rim, width=w)


def digit_ink(fill: RGB) -> RGB:
    """Black or white, whichever reads better on `fill`."""
    luma = 0.299 * fill[0] + 0.587 * fill[1] + 0.114 * fill[2]
    return (17, 18, 20) if luma > 140 else (255, 255, 255)


@lru_cache(maxsize=512)
def head(seat: str, right: bool, size: int, pointer: int, theme: str, digit: int) -> Image.Image:
    """The top piece of a stack: body `size` px, a pointer of `pointer` px on the travel side.

    `digit` is the font size of the seat number drawn on the body (team games), 0 for none (1 v 1, where
    the body carries a chevron instead). The sprite is `size + pointer` wide and `size` tall; the body is
    flush with the side away from travel.
    """
    team = seat[0]
    fill = SEAT_COLOURS[get_theme(theme).name][seat]
    rim = _rim(team, theme)
    w, h = (size + pointer) * SS, size * SS
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    line = 2 * SS if size >= 24 else SS
    bx0 = 0 if right else pointer * SS
    body = (bx0, 0, bx0 + size * SS - 1, h - 1)
    mid = h // 2
    half = h // 4
    # The pointer: a solid triangle in the theme's text colour, from under the body's edge to the sprite's edge.
    base = bx0 + size * SS * 3 // 4 if right else bx0 + size * SS // 4
    tip = w - 1 if right else 0
    draw.polygon([(base, mid - half), (tip, mid), (base, mid + half)], fill=get_theme(theme).text, outline=rim)
    _body(draw, body, team, fill, rim, line)
    if not digit:
        # 1 v 1 pieces carry no seat number, so the direction is also drawn large inside the body.
        cx = (body[0] + body[2]) // 2
        k = size * SS // 5
        sign = 1 if right else -1
        draw.line(
            [(cx - sign * k // 2, mid - k), (cx + sign * k // 2, mid), (cx - sign * k // 2, mid + k)],
            fill=digit_ink(fill),
            width=max(SS, size * SS // 9),
            joint="curve",
        )
    if digit:
        font = load_font(digit * SS, bold=True)
        cx = (body[0] + body[2]) // 2
        draw.text((cx, mid - size * SS // 14), seat[1:], font=font, fill=digit_ink(fill), anchor="mm")
    return image.reduce(SS)


@lru_cache(maxsize=1024)
def slice_(seat: str, captive: bool, width: int, height: int, theme: str) -> Image.Image:
    """A piece under the top of a stack, `width` x `height` px: a captive is striped, a freed compatriot plain.

    The stripes are the captive's cue besides colour: dark bars slanting across the right three fifths,
    thick enough to show at Discord's preview size. The left part stays plain, in the seat's colour.
    """
    team = seat[0]
    t = get_theme(theme)
    fill = SEAT_COLOURS[t.name][seat]
    rim = _rim(team, theme)
    w, h = width * SS, height * SS
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    box = (0, 0, w - 1, h - 1)
    radius = h // 2 if team == "A" else max(SS, h // 5)
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=rim, width=SS)
    if captive:
        bar = max(SS * 2, h // 3)
        mask = Image.new("L", (w, h), 0)
        ImageDraw.Draw(mask).rounded_rectangle(box, radius=radius, fill=255)
        stripes = Image.new("L", (w, h), 0)
        sd = ImageDraw.Draw(stripes)
        x = int(w * 0.42)
        while x < w + h:
            sd.polygon([(x, h), (x + bar, h), (x + bar + h, 0), (x + h, 0)], fill=255)
            x += bar * 2 + bar // 2
        ink = Image.new("RGBA", (w, h), (*t.ink, 255))
        image.paste(ink, (0, 0), ImageChops.multiply(stripes, mask))
    return image.reduce(SS)


@lru_cache(maxsize=256)
def icon(seat: str, size: int, theme: str, digit: int) -> Image.Image:
    """A plain piece of `seat` (no pointer), for the homes and the header; `digit` as for `head`."""
    team = seat[0]
    fill = SEAT_COLOURS[get_theme(theme).name][seat]
    s = size * SS
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    _body(draw, (0, 0, s - 1, s - 1), team, fill, _rim(team, theme), 2 * SS if size >= 24 else SS)
    if digit:
        font = load_font(digit * SS, bold=True)
        draw.text((s // 2, s // 2), seat[1:], font=font, fill=digit_ink(fill), anchor="mm")
    return image.reduce(SS)


@lru_cache(maxsize=64)
def team_icon(team: str, size: int, colour: RGB, rim: RGB) -> Image.Image:
    """The team's shape in a neutral team colour: a disc for A, a rounded square for B."""
    s = size * SS
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    _body(ImageDraw.Draw(image), (0, 0, s - 1, s - 1), team, colour, rim, 2 * SS)
    return image.reduce(SS)


@lru_cache(maxsize=256)
def pip(seat: str, state: str, size: int, theme: str) -> Image.Image:
    """One of a seat's five pieces in its home row: "home", "road", "killed" or "gone"."""
    team = seat[0]
    t = get_theme(theme)
    fill = SEAT_COLOURS[t.name][seat]
    s = size * SS
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    box = (SS, SS, s - 1 - SS, s - 1 - SS)
    line = max(SS, s // 8)
    if state == "home":
        _body(draw, box, team, fill, _rim(team, theme), max(SS, s // 12))
    elif state == "road":
        # Out on the road: only the outline, in the seat's colour.
        if team == "A":
            draw.ellipse(box, outline=fill, width=line)
        else:
            draw.rounded_rectangle(box, radius=s // 4, outline=fill, width=line)
    elif state == "killed":
        m = s // 5
        draw.line((m, m, s - m, s - m), fill=t.capture, width=line + SS)
        draw.line((m, s - m, s - m, m), fill=t.capture, width=line + SS)
    elif state == "gone":
        # Burned or spent: a small grey ember.
        draw.polygon([(s // 2, SS), (s - s // 5, s * 3 // 5), (s // 2, s - SS), (s // 5, s * 3 // 5)], fill=t.muted)
    else:
        raise ValueError(f"unknown pip state {state!r}")
    return image.reduce(SS)


@lru_cache(maxsize=64)
def captive_tag(width: int, height: int, theme: str) -> Image.Image:
    """The sign for "captives" beside a stack's size: a small flat piece, striped like a captive slice."""
    t = get_theme(theme)
    w, h = width * SS, height * SS
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=h // 3, fill=t.text)
    bar = max(SS, h // 3)
    x = int(w * 0.4)
    while x < w:
        draw.polygon([(x, h), (x + bar, h), (x + bar + h // 2, 0), (x + h // 2, 0)], fill=t.ink)
        x += bar * 2 + bar // 2
    return image.reduce(SS)
