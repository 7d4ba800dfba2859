"""Helpers for the renderer tests: decoding images and reaching mid-game positions from seeded games."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from puluc import GameRecord, Position, Rules
from renderer.sample import random_game


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def rgb(data: bytes) -> Image.Image:
    return decode(data).convert("RGB")


def pixels(image: Image.Image) -> list[tuple[int, ...]]:
    """Every pixel of an image, row by row."""
    flat = getattr(image, "get_flattened_data", None)  # Pillow 12+; getdata is deprecated there
    return list(flat() if flat is not None else image.getdata())


def random_record(rules: Rules, seed: int, moves: int) -> GameRecord:
    """A seeded game of random legal moves, stopped after `moves` moves or at its end."""
    return random_game(rules, seed, max_moves=moves)


def played(rules: Rules, seed: int, moves: int) -> Position:
    return random_record(rules, seed, moves).replay()


@pytest.fixture
def ants() -> Rules:
    return Rules.preset("ants")


@pytest.fixture
def tower(ants: Rules) -> Position:
    """Ants 1 v 1: a B1-owned tower of six on cell 4 travelling home (right), lone pieces on 2 and 7."""
    return Position.from_ppn(ants, "./A1+/./B1A1A1B1B1A1-/././B1+/./. A1:1,B1:1 A1:0,B1:0 A1 -")
