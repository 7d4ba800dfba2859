"""The ladder and player commands through a simulated Discord (SimCord) on a real SQLite file.

A second storage on the bot's database file plays whole Puluc games (random legal moves, then the loser
resigns) through the storage API, with a clock the test sets, so the ladder holds listed,
provisional and inactive players. The bot then answers `/puluc leaderboard`, `profile`, `history`,
`replay`, `privacy` and `forget-me` as a member would see them.
"""

from __future__ import annotations

import io
import json
import random
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from discord.ext import commands
from PIL import Image

from bot import app
from bot.app import PulucBot
from bot.storage import Storage
from bot.storage.types import GLOBAL_SCOPE, NewEvent, SeatSpec
from bot.ui.i18n import SUPPORTED, t
from puluc import Game, GameRecord, Rules
from tests.helpers import FakeClock, MakeBot, emit_click, open_sqlite
from tests.helpers import World as Server

LADDERS = "bot.cogs.ladders.cog"
MOVES = 8  # moves per seeded game: more than the 6 a ranked game needs
CLUB = [900_001 + i for i in range(12)]  # club players who exist only in the storage
# Carol's games: 45 days before the bot's clock (time.time()): inactive, yet not away long enough for her
# rating to be provisional again (bot.ratings.PROVISIONAL_SIGMA).
CAROL_DAYS_AGO = 45


class LadderBot(commands.Bot):
    """A small bot: the storage `bot.app.PulucBot` would open, and only the Ladders extension.

    The game cogs are left out on purpose: these tests are about the ladder commands, and they must not
    depend on the rest of the bot while it changes.
    """

    def __init__(self, path: Path, opened: list[Storage]) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.path = path
        self.opened = opened
        self.storage: Storage | None = None

    async def setup_hook(self) -> None:
        self.storage = await open_sqlite(self.path)
        self.opened.append(self.storage)
        await self.load_extension(LADDERS)
        await self.tree.sync()


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "data" / "puluc.db"


@pytest.fixture
async def opened() -> AsyncIterator[list[Storage]]:
    """The storages the bots opened; closed at the end (SimCord never closes a bot, and an open aiosqlite
    connection is a thread that would keep the test process alive)."""
    opened_storages: list[Storage] = []
    yield opened_storages
    for storage in opened_storages:
        await storage.close()


@pytest.fixture
def simcord_bot(database: Path, opened: list[Storage]) -> LadderBot:
    return LadderBot(database, opened)


# --- seeding the ladder ----------------------------------------------------------------------------------


@dataclass
class Played:
    game_id: int
    moves: int


async def play(
    storage: Storage, guild_id: int, a: tuple[int, str], b: tuple[int, str], winner: str, seed: int,
    *, finish: bool = True,
) -> Played:
    """A real duel: random legal moves until MOVES moves are played, then the loser resigns."""
    rng = random.Random(seed)
    rules = Rules.preset("bell")
    game = Game.new(rules, rng, seed=seed)
    game_id = await storage.games.create_game(
        guild_id=guild_id, channel_id=1, host_id=a[0], variant="bell", rules=rules.to_dict(),
        turn_timer_seconds=60, ranked=True,
        seats=[SeatSpec("A1", a[1], user_id=a[0]), SeatSpec("B1", b[1], user_id=b[0])],
    )
    await storage.games.start_game(game_id, first_team=game.record.first,
                           throw_off=[[x.code, y.code] for x, y in game.record.throw_off], seed=seed,
                           snapshot_ppn=game.position.to_ppn(), turn_deadline=None)
    events: list[NewEvent] = []
    moves = 0
    while moves < MOVES:
        if game.position.must_throw:
            throws = game.roll(rng)
            events.append(NewEvent("throw", {"throw": [x.value for x in throws], "faces": [x.code for x in throws]}))
        else:
            move = rng.choice(game.position.legal_moves())
            game.play(move)
            events.append(NewEvent("move", {"move": str(move)}))
            moves += 1
    assert game.outcome() is None, "the seeded game must still be running when the loser resigns"
    await storage.games.append_events(game_id, 1, events, snapshot_ppn=game.position.to_ppn())
    if finish:
        loser = "B1" if winner == "A" else "A1"
        await storage.games.finish_game(
            game_id, winner=winner, scores=game.position.scores(), end_reason="resign",
            kills={seat: game.position.kills(seat) for seat in ("A1", "B1")},
            events=[NewEvent("resign", {"seat": loser})], first_seq=len(events) + 1,
        )
    return Played(game_id, moves)


@dataclass
class Ladder:
    """What was seeded: alice listed low, bob provisional, carol inactive, twelve club players."""

    alice_games: list[Played] = field(default_factory=list)
    other_guild_game: int = 0


def club(i: int) -> tuple[int, str]:
    return CLUB[i], f"club{i + 1:02d}"


class World(Server):
    """The end-to-end suite's server, with a member's id and name as a ladder entry names them."""

    def pair(self, member: simcord.MemberActor) -> tuple[int, str]:
        return member.id, member.name


@pytest.fixture
def world(simcord_env: simcord.Env) -> World:
    return World(simcord_env)


@pytest.fixture
async def ladder(world: World, database: Path) -> Ladder:
    seeded = Ladder()
    clock = FakeClock(time.time() - CAROL_DAYS_AGO * 86_400, tick=60)  # a minute a write: distinct times
    storage = await open_sqlite(database, clock=clock)
    guild = world.guild.id
    seed = iter(range(1, 1000))
    try:
        for i in range(6, 11):  # carol's five wins, long ago: rated, not provisional, but inactive
            await play(storage, guild, world.pair(world.carol), club(i), "A", next(seed))
        clock.now = time.time() - 6 * 3600
        for i in range(12):  # the club: the lower number always wins
            for k in (1, 2, 3):
                j = (i + k) % 12
                first, second = sorted((i, j))
                await play(storage, guild, club(first), club(second), "A", next(seed))
        for i in range(5):  # alice: five losses, listed but low
            seeded.alice_games.append(await play(storage, guild, world.pair(world.alice), club(i), "B", next(seed)))
        for _ in range(2):  # bob: two wins, still provisional
            await play(storage, guild, world.pair(world.bob), club(11), "A", next(seed))
        seeded.other_guild_game = (await play(storage, guild + 1, club(0), club(1), "A", next(seed))).game_id
    finally:
        await storage.close()
    return seeded


def bot_storage(env: simcord.Env) -> Storage:
    storage = getattr(env.bot, "storage", None)
    assert isinstance(storage, Storage)
    return storage


# --- reading answers -------------------------------------------------------------------------------------


def answer(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    """The bot's (first) answer to an interaction; failing here means the bot did not answer at all."""
    assert result.response is not None, "the bot did not answer"
    return result.response


def buttons(components: list[Any]) -> Iterator[dict[str, Any]]:
    """Button dicts of a SimCord response, or of a channel message's discord.py components."""
    for row in components:
        children = row.get("components", []) if isinstance(row, dict) else row.children
        for child in children:
            if isinstance(child, dict):
                yield child
            else:
                yield {"custom_id": child.custom_id, "label": child.label, "disabled": child.disabled}


def button(components: list[Any], label: str) -> dict[str, Any]:
    return next(b for b in buttons(components) if b.get("label") == label)


def lines(embed: discord.Embed) -> list[str]:
    return (embed.description or "").splitlines()


def footer(embed: discord.Embed) -> str:
    return embed.footer.text or ""


def posted(world: World) -> discord.Embed:
    """The first embed of the channel's last public message."""
    message = world.games.last_message
    assert message is not None
    return message.embeds[0]


def field_value(embed: discord.Embed, name: str) -> str:
    return next(f.value for f in embed.fields if f.name == name) or ""


async def forged_click(env: simcord.Env, actor: simcord.MemberActor, message: Any, custom_id: str) -> None:
    """Deliver a click SimCord's actors refuse (someone else's ephemeral message), as a tampered client
    could send it (private API, as in the SimCord notes)."""
    emit_click(env, actor, message, custom_id)
    await env.settle()


# --- leaderboard -----------------------------------------------------------------------------------------


async def test_leaderboard_lists_ten_ranked_players_and_the_callers_place_off_the_page(
    world: World, ladder: Ladder
) -> None:
    standing = await bot_storage(world.env).ladders.standing(world.alice.id, "duel", world.guild.id)
    assert standing is not None and standing.rank is not None and standing.rank > 10  # the setting of this test

    shown = await world.alice.slash(world.games, "puluc leaderboard")

    embed = answer(shown).embeds[0]
    assert not shown.ephemeral
    assert embed.title == "Leaderboard: 1 v 1, This server"
    entries = lines(embed)
    assert [line.split("`")[1] for line in entries] == [f"#{rank}" for rank in range(1, 11)]
    ratings = [int(line.split(" · ")[1]) for line in entries]
    assert ratings == sorted(ratings, reverse=True)
    assert all("club" in line and " games · " in line for line in entries)
    assert field_value(embed, "Your place") == f"`#{standing.rank}` · {standing.rating} · 5 games · 0% won"
    assert button(answer(shown).components, "Previous")["disabled"]
    assert not button(answer(shown).components, "Next").get("disabled")


async def test_provisional_and_inactive_players_are_left_off_the_leaderboard(world: World, ladder: Ladder) -> None:
    first = await world.alice.slash(world.games, "puluc leaderboard")
    second = await world.alice.click(answer(first).message, label="Next")
    listed = " ".join(lines(answer(first).embeds[0]) + lines(answer(second).embeds[0]))
    assert "alice" in listed and "club12" in listed
    assert "bob" not in listed and "carol" not in listed

    bob = await world.bob.slash(world.games, "puluc leaderboard")
    assert field_value(answer(bob).embeds[0], "Your place").startswith(
        "Your rating 1"
    ) and "provisional: 2 ranked games played, 5 needed" in field_value(answer(bob).embeds[0], "Your place")
    carol = await world.carol.slash(world.games, "puluc leaderboard")
    assert "not listed: no ranked game on this ladder in the last 30 days" in field_value(
        answer(carol).embeds[0], "Your place")


async def test_next_and_previous_turn_the_page_in_place(world: World, ladder: Ladder) -> None:
    shown = await world.alice.slash(world.games, "puluc leaderboard")
    message = answer(shown).message

    turned = await world.alice.click(message, label="Next")

    page_two = answer(turned).embeds[0]
    assert [line.split("`")[1] for line in lines(page_two)] == ["#11", "#12", "#13"]
    mine = [line for line in lines(page_two) if "alice" in line]
    assert len(mine) == 1 and mine[0].endswith("◀")
    assert footer(page_two).startswith("Page 2")
    assert button(answer(turned).components, "Next")["disabled"]
    assert footer(posted(world)).startswith("Page 2")  # the same message, edited

    back = await world.alice.click(message, label="Previous")
    assert lines(answer(back).embeds[0])[0].startswith("`#1`")


async def test_someone_elses_next_press_gets_their_own_page_and_leaves_the_message(
    world: World, ladder: Ladder
) -> None:
    shown = await world.alice.slash(world.games, "puluc leaderboard")

    pressed = await world.bob.click(answer(shown).message, label="Next")

    assert pressed.ephemeral
    assert "provisional" in field_value(answer(pressed).embeds[0], "Your place")
    assert footer(posted(world)).startswith("Page 1")


async def test_leaderboard_buttons_work_after_a_restart(
    world: World, ladder: Ladder, database: Path, opened: list[Storage]
) -> None:
    shown = await world.alice.slash(world.games, "puluc leaderboard")
    await world.env.restart_bot(LadderBot(database, opened))

    turned = await world.alice.click(answer(shown).message, label="Next")

    assert footer(answer(turned).embeds[0]).startswith("Page 2")


async def test_global_and_team_ladders_are_their_own_boards(world: World, ladder: Ladder) -> None:
    everywhere = await world.alice.slash(world.games, "puluc leaderboard", scope="global")
    assert answer(everywhere).embeds[0].title == "Leaderboard: 1 v 1, All servers"
    standing = await bot_storage(world.env).ladders.standing(world.alice.id, "duel", GLOBAL_SCOPE)
    assert standing is not None
    assert field_value(answer(everywhere).embeds[0], "Your place").startswith(f"`#{standing.rank}`")

    teams = await world.alice.slash(world.games, "puluc leaderboard", ladder="team")
    embed = answer(teams).embeds[0]
    assert lines(embed)[0].startswith("Nobody is listed yet")
    assert field_value(embed, "Your place").startswith("You have no rating on this ladder yet")
    assert answer(teams).components == []


# --- profile and history ---------------------------------------------------------------------------------


async def test_profile_shows_ratings_record_streak_and_a_rating_chart(world: World, ladder: Ladder) -> None:
    standing = await bot_storage(world.env).ladders.standing(world.alice.id, "duel", world.guild.id)
    assert standing is not None

    shown = await world.alice.slash(world.games, "puluc profile")

    embed = answer(shown).embeds[0]
    assert embed.title == "Puluc profile: alice"
    server = field_value(embed, "1 v 1 · This server")
    assert f"Rating **{standing.rating}** · #{standing.rank} on the leaderboard" in server
    assert "5 games: 0 wins, 0 draws, 5 losses" in server
    assert "5 games: 0 wins" in field_value(embed, "1 v 1 · All servers")
    assert field_value(embed, "Current streak") == "5 losses in a row"
    assert field_value(embed, "Favourite variant") == "Bell"
    assert field_value(embed, "Best win") == "No ranked win yet"
    assert field_value(embed, "All finished games").startswith("5 games · ")
    assert embed.image.url == "attachment://rating.png"
    (chart,) = answer(shown).attachments
    assert chart.filename == "rating.png"
    image = Image.open(io.BytesIO(await chart.read()))
    assert image.format == "PNG" and image.size == (800, 400)


async def test_profile_marks_provisional_and_inactive_ratings(world: World, ladder: Ladder) -> None:
    bob = await world.alice.slash(world.games, "puluc profile", user=world.bob)
    embed = answer(bob).embeds[0]
    assert "(provisional: 2 ranked games of 5)" in field_value(embed, "1 v 1 · This server")
    assert "on the leaderboard" not in field_value(embed, "1 v 1 · This server")
    assert field_value(embed, "Best win").startswith("1 v 1: game #")
    assert field_value(embed, "Current streak") == "2 wins in a row"

    carol = await world.alice.slash(world.games, "puluc profile", user=world.carol)
    assert "not listed: no ranked game in the last 30 days" in field_value(
        answer(carol).embeds[0], "1 v 1 · This server")


async def test_profile_of_someone_who_never_played_says_so_privately(world: World, ladder: Ladder) -> None:
    shown = await world.alice.slash(world.games, "puluc profile", user=world.dave)
    assert shown.ephemeral
    assert answer(shown).content == f"<@{world.dave.id}> has not played Puluc yet."


async def test_history_lists_the_last_games_with_ids_opponents_and_results(world: World, ladder: Ladder) -> None:
    shown = await world.alice.slash(world.games, "puluc history")

    embed = answer(shown).embeds[0]
    assert embed.title == "Recent games: alice"
    entries = lines(embed)[:-2]
    # This bot never synced with the ids at hand (no PulucBot.mentions): the command is typed out.
    assert lines(embed)[-2:] == ["", "Watch one again with /puluc replay and its number."]
    newest_first = [p.game_id for p in reversed(ladder.alice_games)]
    assert [int(line.split("`")[1].lstrip("#")) for line in entries] == newest_first
    assert all("**Loss**" in line and "ranked" in line for line in entries)
    assert "against club01" in entries[-1] and "against club05" in entries[0]

    bob = await world.alice.slash(world.games, "puluc history", user=world.bob)
    assert all("**Win**" in line and "against club12" in line for line in lines(answer(bob).embeds[0])[:-2])
    nobody = await world.alice.slash(world.games, "puluc history", user=world.dave)
    assert answer(nobody).embeds[0].description == "No finished games yet."


# --- replay ----------------------------------------------------------------------------------------------


async def test_replay_sends_a_gif_with_a_frame_per_move_and_the_record_as_json(
    world: World, ladder: Ladder
) -> None:
    played = ladder.alice_games[0]

    shown = await world.bob.slash(world.games, "puluc replay", game_id=played.game_id)

    reply = answer(shown)
    assert not shown.ephemeral
    assert reply.content.startswith(f"Replay of game #{played.game_id}")
    gif, record = reply.attachments
    assert (gif.filename, record.filename) == (f"puluc-{played.game_id}.gif", f"puluc-{played.game_id}.json")
    animation = Image.open(io.BytesIO(await gif.read()))
    assert animation.format == "GIF" and getattr(animation, "n_frames", 1) == played.moves + 1
    text = (await record.read()).decode()
    parsed = GameRecord.from_json(text)
    assert len(parsed.moves) == played.moves
    assert parsed.seats == {"A1": "alice", "B1": "club01"}
    assert json.loads(text)["format"] == "puluc-record"


async def test_replay_of_an_unknown_or_unfinished_game_is_refused_privately(
    world: World, ladder: Ladder, database: Path
) -> None:
    unknown = await world.alice.slash(world.games, "puluc replay", game_id=99_999)
    assert unknown.ephemeral and answer(unknown).content == "There is no game #99999 in this server."

    storage = await open_sqlite(database)
    try:
        running = await play(storage, world.guild.id, world.pair(world.alice), world.pair(world.bob), "A", 7,
                             finish=False)
    finally:
        await storage.close()
    unfinished = await world.alice.slash(world.games, "puluc replay", game_id=running.game_id)
    assert unfinished.ephemeral
    assert answer(unfinished).content == t("ladder.replay.unfinished", "en", game_id=running.game_id)
    assert answer(unfinished).attachments == []


async def test_another_servers_game_is_not_replayed_here(world: World, ladder: Ladder) -> None:
    shown = await world.alice.slash(world.games, "puluc replay", game_id=ladder.other_guild_game)
    assert shown.ephemeral and "There is no game" in answer(shown).content



async def test_without_attach_files_the_profile_has_no_chart_and_replay_says_why(world: World, ladder: Ladder) -> None:
    me = world.guild.me
    assert me is not None
    no_files = world.guild.create_text_channel(
        "no-files", overwrites={me: discord.PermissionOverwrite(attach_files=False)}
    )

    profile = await world.alice.slash(no_files, "puluc profile")
    assert answer(profile).attachments == [] and not answer(profile).embeds[0].image.url
    assert "5 losses" in field_value(answer(profile).embeds[0], "1 v 1 · This server")

    replay = await world.alice.slash(no_files, "puluc replay", game_id=ladder.alice_games[0].game_id)
    assert replay.ephemeral and answer(replay).content == (
        "I need the Attach Files permission in this channel to send that.")


async def test_ladder_texts_follow_the_callers_language_and_its_plurals(
    world: World, ladder: Ladder, interaction_locale: Callable[[str], None]
) -> None:
    interaction_locale("uk")

    board = await world.bob.slash(world.games, "puluc leaderboard")
    profile = await world.alice.slash(world.games, "puluc profile", user=world.bob)

    assert answer(board).embeds[0].title == "Таблиця лідерів: 1 на 1, Цей сервер"
    assert "зіграно 2 рейтингові гри" in field_value(answer(board).embeds[0], "Ваше місце")
    assert button(answer(board).components, "Далі")["custom_id"].startswith("puluc:lb:")
    assert field_value(answer(profile).embeds[0], "Поточна серія") == "2 перемоги поспіль"

# --- privacy and forget-me -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", SUPPORTED)
async def test_privacy_explains_what_is_stored_in_the_callers_language(
    world: World, ladder: Ladder, interaction_locale: Callable[[str], None], lang: str
) -> None:
    interaction_locale({"en": "en-GB", "uk": "uk", "it": "it", "fr": "fr", "es": "es-419"}[lang])

    shown = await world.alice.slash(world.games, "puluc privacy")

    assert shown.ephemeral
    embed = answer(shown).embeds[0]
    assert embed.title == t("privacy.title", lang)
    assert [f.name for f in embed.fields] == [
        t(f"privacy.{section}.title", lang) for section in ("players", "games", "ratings", "calls", "kept")
    ] + [t("retention.title", lang), t("privacy.yours", lang)]
    assert embed.fields[-2].value == t("retention.keep", lang)  # FINISHED_GAME_RETENTION_DAYS=0: kept for ever
    yours = embed.fields[-1].value or ""
    assert t("privacy.count_seats", lang, count=5) in yours
    assert t("privacy.count_ratings", lang, count=2) in yours  # duel: this server and all servers
    assert len({t("privacy.title", other) for other in SUPPORTED}) == len(SUPPORTED)


async def test_forget_me_confirmed_erases_the_profile_and_anonymises_past_seats(
    world: World, ladder: Ladder
) -> None:
    storage = bot_storage(world.env)
    opponent_before = await storage.ladders.standing(CLUB[0], "duel", world.guild.id)

    prompt = await world.alice.slash(world.games, "puluc forget-me")
    assert prompt.ephemeral and answer(prompt).content == t("privacy.forget.prompt", "en")

    done = await world.alice.click(answer(prompt), label="Erase my data")

    assert answer(done).content.startswith("Done: your ratings and profile are erased, and your 5 seats")
    assert answer(done).components == []
    assert await storage.players.profile(world.alice.id) is None
    gone = await world.alice.slash(world.games, "puluc profile")
    assert gone.ephemeral and "has not played Puluc yet" in answer(gone).content
    history = await world.alice.slash(world.games, "puluc history", user=world.alice)
    assert answer(history).embeds[0].description == "No finished games yet."
    # The opponents' records stay whole: their games show a former player, their ratings are untouched.
    club_history = await storage.players.game_history(CLUB[0])
    alice_game = next(g for g in club_history if g.game_id == ladder.alice_games[0].game_id)
    assert alice_game.opponents == ("Former player",)
    assert await storage.ladders.standing(CLUB[0], "duel", world.guild.id) == opponent_before


async def test_only_the_caller_can_confirm_forget_me(world: World, ladder: Ladder) -> None:
    prompt = await world.alice.slash(world.games, "puluc forget-me")
    confirm_id = button(answer(prompt).components, "Erase my data")["custom_id"]

    with pytest.raises(simcord.SetupError):  # an ephemeral prompt: bob's client does not even show it
        await world.bob.click(answer(prompt), label="Erase my data")
    await forged_click(world.env, world.bob, answer(prompt).message, confirm_id)

    refused = [m for m in world.games.history(viewer=world.bob) if m.content == t("privacy.forget.not_yours", "en")]
    assert len(refused) == 1
    assert await bot_storage(world.env).players.profile(world.alice.id) is not None
    assert await bot_storage(world.env).players.profile(world.bob.id) is not None


async def test_forget_me_can_be_called_off_and_expires(world: World, ladder: Ladder) -> None:
    kept = await world.alice.slash(world.games, "puluc forget-me")
    called_off = await world.alice.click(answer(kept), label="Keep my data")
    assert answer(called_off).content == "Nothing was erased."

    late = await world.alice.slash(world.games, "puluc forget-me")
    await world.env.advance_time(16 * 60)
    expired = await world.alice.click(answer(late), label="Erase my data")
    assert answer(expired).content == "This confirmation has expired; run /puluc forget-me again."
    assert await bot_storage(world.env).players.profile(world.alice.id) is not None


async def test_forget_me_waits_until_the_player_has_left_open_games(
    world: World, ladder: Ladder, database: Path
) -> None:
    storage = await open_sqlite(database)
    try:
        await play(storage, world.guild.id, world.pair(world.alice), world.pair(world.bob), "A", 11, finish=False)
    finally:
        await storage.close()
    prompt = await world.alice.slash(world.games, "puluc forget-me")

    refused = await world.alice.click(answer(prompt), label="Erase my data")

    assert answer(refused).content == t("privacy.forget.open_game", "en")
    assert await bot_storage(world.env).players.profile(world.alice.id) is not None


# --- inside the whole bot ----------------------------------------------------------------------------------


class TestInsideTheWholeBot:
    """The extension as `bot.app.PulucBot` loads it: its tree admits the commands, its storage serves them."""

    @pytest.fixture
    def simcord_bot(self, bots: MakeBot, monkeypatch: pytest.MonkeyPatch) -> PulucBot:
        if LADDERS not in app.EXTENSIONS:
            monkeypatch.setattr(app, "EXTENSIONS", (*app.EXTENSIONS, LADDERS))
        return bots()

    async def test_ladder_commands_are_puluc_subcommands_and_answer(self, simcord_env: simcord.Env) -> None:
        guild = simcord_env.create_guild("Puluc Club")
        channel = guild.create_text_channel("games")
        alice = guild.add_member(simcord_env.create_user("alice"))
        offered = alice.available_commands(channel)
        for command in ("leaderboard", "profile", "history", "replay", "privacy", "forget-me"):
            assert f"puluc {command}" in offered

        board = await alice.slash(channel, "puluc leaderboard")
        assert answer(board).embeds[0].title == "Leaderboard: 1 v 1, This server"
        prompt = await alice.slash(channel, "puluc forget-me")
        kept = await alice.click(answer(prompt), label="Keep my data")
        assert answer(kept).content == "Nothing was erased."
