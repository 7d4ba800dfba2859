"""How colours look to people with colour-vision deficiencies, and how far apart two colours look.

`simulate(rgb, kind)` applies the dichromacy simulation of Machado, Oliveira and Fernandes, "A
Physiologically-based Model for Simulation of Color Vision Deficiency", IEEE Transactions on Visualization
and Computer Graphics 15(6), 2009 (doi:10.1109/TVCG.2009.113): a 3x3 matrix per deficiency at severity
1.0, applied to linear sRGB. `distance(a, b)` is the CIEDE2000 colour difference (Sharma, Wu and Dalal,
"The CIEDE2000 Color-Difference Formula", Color Research & Application 30(1), 2005) between two sRGB
colours under D65. The seat colours are chosen with these (`research/seat_palette.py`) and the tests
hold them to a minimum distance. Numbers only: nothing here draws or reads files.
"""

from __future__ import annotations

import math
from itertools import combinations

RGB = tuple[int, int, int]
Lab = tuple[float, float, float]
Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]

#: Machado et al. (2009), Table 1, severity 1.0, for linear sRGB.
MACHADO_2009: dict[str, Matrix] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
#: Normal vision first, then the three dichromacies.
VISIONS = ("normal", *MACHADO_2009)

# sRGB (D65) to CIE XYZ, IEC 61966-2-1.
_TO_XYZ: Matrix = (
    (0.4124564, 0.3575761, 0.1804375),
    (0.2126729, 0.7151522, 0.0721750),
    (0.0193339, 0.1191920, 0.9503041),
)
_WHITE = (0.95047, 1.0, 1.08883)


def _to_linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _to_srgb(linear: float) -> int:
    c = min(1.0, max(0.0, linear))
    v = 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return round(v * 255)


def _apply(m: Matrix, v: tuple[float, float, float]) -> tuple[float, float, float]:
    return (
        m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
        m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
        m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
    )


def _linear(rgb: RGB) -> tuple[float, float, float]:
    return (_to_linear(rgb[0]), _to_linear(rgb[1]), _to_linear(rgb[2]))


def _simulated_linear(rgb: RGB, kind: str) -> tuple[float, float, float]:
    lin = _linear(rgb)
    if kind == "normal":
        return lin
    try:
        matrix = MACHADO_2009[kind]
    except KeyError:
        raise ValueError(f"unknown vision {kind!r}; choose one of {', '.join(VISIONS)}") from None
    r, g, b = _apply(matrix, lin)
    return (min(1.0, max(0.0, r)), min(1.0, max(0.0, g)), min(1.0, max(0.0, b)))


def simulate(rgb: RGB, kind: str) -> RGB:
    """`rgb` as a person with `kind` ("normal", "protanopia", "deuteranopia", "tritanopia") sees it."""
    r, g, b = _simulated_linear(rgb, kind)
    return (_to_srgb(r), _to_srgb(g), _to_srgb(b))


def lab(rgb: RGB, kind: str = "normal") -> Lab:
    """CIE L*a*b* (D65) of `rgb` as seen with `kind`."""
    x, y, z = _apply(_TO_XYZ, _simulated_linear(rgb, kind))

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x / _WHITE[0]), f(y / _WHITE[1]), f(z / _WHITE[2])
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def ciede2000(first: Lab, second: Lab) -> float:
    """The CIEDE2000 difference of two L*a*b* colours (kL = kC = kH = 1)."""
    l1, a1, b1 = first
    l2, a2, b2 = second
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    elif h2p - h1p > 180:
        dh = h2p - h1p - 360
    else:
        dh = h2p - h1p + 360
    big_dh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean = (l1 + l2) / 2
    cp_mean = (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        h_mean = (h1p + h2p + 360) / 2
    else:
        h_mean = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * cp_mean
    sh = 1 + 0.015 * cp_mean * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (big_dh / sh) ** 2 + rt * (dc / sc) * (big_dh / sh))


def distance(first: RGB, second: RGB, kind: str = "normal") -> float:
    """How different two sRGB colours look to a person with `kind` (CIEDE2000)."""
    return ciede2000(lab(first, kind), lab(second, kind))


def closest_pair(colours: dict[str, RGB], kind: str) -> tuple[float, str, str]:
    """The two names in `colours` whose colours look most alike with `kind`, and their distance."""
    labs = {name: lab(rgb, kind) for name, rgb in colours.items()}
    return min((ciede2000(labs[a], labs[b]), a, b) for a, b in combinations(labs, 2))
