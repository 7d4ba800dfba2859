"""The database failing under a running game: a full disk (SQLite on a small filesystem filled mid-game).

The player hears "your move was not played: the bot could not save it; try again in a moment", the game
message keeps the true position with working buttons, nothing the bot posts is left behind untracked, the
log records the outage as a warning (an ERROR would fail the test: tests/conftest.py), and once there is
room again the same click plays the move, once.
"""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import simcord

from bot.config import Config
from bot.ui.i18n import t
from tests.helpers import (
    World,
    accepted_challenge,
    custom_ids,
    game_message,
    logged_moves,
    make_config,
    mentioned,
    move_ids,
    said,
)

DISK_BYTES = 2 * 1024 * 1024  # room for the schema, its WAL and a few games


class SmallDisk:
    """A tmpfs of DISK_BYTES mounted for one test; `fill()` takes every free byte, `free()` gives them back."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.filler = root / "filler"

    def fill(self) -> None:
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            for size in (65536, 4096, 512, 1):  # smaller and smaller writes, down to the last byte
                while True:
                    try:
                        os.write(fd, b"\0" * size)
                    except OSError as exc:
                        assert exc.errno == errno.ENOSPC, exc
                        break
        finally:
            os.close(fd)

    def free(self) -> None:
        self.filler.unlink()


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[SmallDisk]:
    root = tmp_path / "small-disk"
    root.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={DISK_BYTES}", "tmpfs", str(root)],
                             capture_output=True, text=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {mounted.stderr.strip()}")
    try:
        yield SmallDisk(root)
    finally:
        subprocess.run(["umount", "--lazy", str(root)], check=True)


@pytest.fixture
def config(small_disk: SmallDisk) -> Config:
    return make_config(small_disk.root / "puluc.db")


def with_buttons(world: World) -> list[int]:
    return [m.id for m in world.games.history() if custom_ids(m, enabled=False)]


async def test_a_full_disk_refuses_the_move_clearly_and_the_same_click_works_once_there_is_room(
    world: World, simcord_env: simcord.Env, small_disk: SmallDisk, caplog: pytest.LogCaptureFixture
) -> None:
    session = await accepted_challenge(world)
    for _ in range(2):
        board = game_message(world.games)
        await world.member(mentioned(board)[0]).click(board, custom_id=move_ids(board)[0])
    played = await logged_moves(world, session.game_id)
    board = game_message(world.games)
    (mover,) = mentioned(board)
    button = move_ids(board)[-1]
    state = session.state

    small_disk.fill()
    refused = await world.member(mover).click(board, custom_id=button)

    assert said(refused) == t("error.move_not_saved", "en")
    assert session.state is state
    assert game_message(world.games).id == board.id and move_ids(game_message(world.games)) == move_ids(board)
    assert "database is unavailable (disk_full)" in caplog.text

    reposted = await world.carol.slash(world.games, "puluc board")  # cannot be recorded: nothing stays behind
    assert said(reposted) == t("error.not_saved", "en")
    assert with_buttons(world) == [board.id]
    assert session.state.message_id == board.id

    small_disk.free()
    again = await world.member(mover).click(board, custom_id=button)

    assert not said(again)
    assert await logged_moves(world, session.game_id) == [*played, button.split(":", 4)[4]]
    assert session.state.seq > state.seq
    assert game_message(world.games).id == board.id and move_ids(game_message(world.games)) != move_ids(board)
