"""`/puluc review` in Discord: which game and seat may be reviewed, the review drawn in the workers and kept per
game, and the answer (the chances after each decision next to the best's, the three costliest with their boards,
the chart with those marked, and which method found the chances)."""

from __future__ import annotations

import io
from collections import OrderedDict
from collections.abc import Awaitable, Callable

import discord

from bot.cogs.games.boards import board_texts, seat_names
from bot.compute import ComputePool
from bot.learning.review import ReviewRequest, ReviewResult, review
from bot.limits import REVIEW
from bot.sessions import GameState
from bot.storage.types import Game
from bot.ui.describe import describe_board, describe_chart, percent_text
from bot.ui.i18n import join_list, t

CHART_FILE = "review.png"
COLOUR_REVIEW = 0x5865F2
#: Reviews kept (per game, seat and language): a second look at a game costs nothing.
CACHE_SIZE = 64
#: Decisions listed in the embed's description at most (the rest are summed up).
LISTED = 40


def reviewable(game: Game, guild_id: int | None, user_id: int) -> bool:
    """A finished game may be reviewed by those who played it, and by anyone in the server it was played in
    (its games are public there, as replays are)."""
    if game.guild_id is not None and game.guild_id == guild_id:
        return True
    return any(seat.user_id == user_id for seat in game.seats)


def seat_to_review(state: GameState, user_id: int, asked: str | None) -> str:
    """The seat asked for, else the caller's own, else the first seat of team A. ValueError for a seat the game
    does not have."""
    seats = [seat.seat for seat in state.seats]
    if asked is not None:
        asked = asked.strip().upper()
        if asked not in seats:
            raise ValueError(asked)
        return asked
    mine = state.seat_of(user_id)
    return mine.seat if mine is not None else seats[0]


class Reviews:
    """Reviews drawn in the compute workers and kept, the newest `CACHE_SIZE`, by (game, seat, language, theme)."""

    def __init__(self, compute: Callable[[], ComputePool]) -> None:
        self._compute = compute
        self._kept: OrderedDict[tuple[int, str, str, str], ReviewResult] = OrderedDict()
        self._players: dict[int, frozenset[int]] = {}  # game -> the members who played it (for forget-me)

    def kept(self, game_id: int, seat: str, lang: str, theme: str = "dark") -> bool:
        """Whether this review is kept already (it then costs nothing: no rate limit applies)."""
        return (game_id, seat, lang, theme) in self._kept

    async def of(self, state: GameState, seat: str, lang: str, theme: str = "dark") -> ReviewResult:
        key = (state.game_id, seat, lang, theme)
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
            return found
        request = ReviewRequest(state.game_record(), seat, seat_names(state, lang), board_texts(lang), theme=theme)
        # In the reviews' own lane of the workers: the games' boards always go first (bot.limits.REVIEW).
        run: Callable[..., Awaitable[ReviewResult]] = self._compute().run_in
        found = await run(REVIEW.lane.name, review, request)
        self._kept[key] = found
        self._players[state.game_id] = frozenset(s.user_id for s in state.seats if s.user_id is not None)
        while len(self._kept) > CACHE_SIZE:
            self._kept.popitem(last=False)
        return found

    def forget(self, user_id: int) -> None:
        """Drop every kept review of a game `user_id` played: its pictures and words name them."""
        games = {game for game, players in self._players.items() if user_id in players}
        for key in [key for key in self._kept if key[0] in games]:
            del self._kept[key]
        for game in games:
            del self._players[game]

    def __len__(self) -> int:
        return len(self._kept)


def _moves(moves: tuple[str, ...], lang: str) -> str:
    return join_list([f"`{move}`" for move in moves], lang)


def review_answer(state: GameState, result: ReviewResult, lang: str) -> tuple[list[discord.Embed], list[discord.File]]:
    """The review's embeds and files: the summary and chart first, then one embed per costliest decision."""
    names = seat_names(state, lang)
    player = names.get(result.seat, result.seat)
    method = t("review.exact" if result.method == "exact" else "review.search", lang)
    lines = [
        t("review.line", lang, turn=d.turn, played=percent_text(d.chance_played, lang),
          best=percent_text(d.chance_best, lang))
        + (" " + t("review.marked", lang, number=result.costliest.index(i) + 1) if i in result.costliest else "")
        for i, d in enumerate(result.decisions)
    ]
    if len(lines) > LISTED:
        lines = [*lines[:LISTED], t("review.more", lang, count=len(lines) - LISTED)]
    summary = discord.Embed(
        title=t("review.title", lang, game_id=state.game_id, player=discord.utils.escape_markdown(player)),
        description="\n".join([method, "", *lines]) if lines else "\n".join([method, "", t("review.none", lang)]),
        colour=COLOUR_REVIEW,
    )
    total = sum(d.cost for d in result.decisions)
    summary.set_footer(text=t("review.footer", lang, count=len(result.decisions), lost=percent_text(total, lang)))
    files: list[discord.File] = []
    embeds = [summary]
    if result.chart is not None:
        summary.set_image(url=f"attachment://{CHART_FILE}")
        marked = [result.decisions[i].turn for i in result.costliest]
        files.append(discord.File(io.BytesIO(result.chart), filename=CHART_FILE,
                                  description=describe_chart(result.points, lang, marked)))
    for number, (i, png) in enumerate(zip(result.costliest, result.boards, strict=True), start=1):
        decided = result.decisions[i]
        name = f"review-{number}.png"
        text = t("review.decision", lang, number=number, turn=decided.turn,
                 played=_moves(decided.played, lang), played_chance=percent_text(decided.chance_played, lang),
                 best=_moves(decided.best, lang), best_chance=percent_text(decided.chance_best, lang))
        embed = discord.Embed(title=t("review.decision_title", lang, number=number, turn=decided.turn),
                              description=text, colour=COLOUR_REVIEW)
        embed.set_image(url=f"attachment://{name}")
        embeds.append(embed)
        board = describe_board(decided.before, lang, names, limit=1024 - len(text) - 1)
        files.append(discord.File(io.BytesIO(png), filename=name, description=f"{text} {board}"[:1024]))
    return embeds, files
