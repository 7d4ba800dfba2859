"""`/puluc learn` in Discord: a lesson as an ephemeral message (its board, its words, a button per choice).

Why an ephemeral series and not a thread: a tutorial is one member's own pace and mistakes, so nobody else
should see them or be able to press its buttons (an ephemeral message's buttons answer only the member it was
shown to); it needs no thread permissions and works in any channel the bot answers in, and it leaves nothing to
clean up. Each click edits the same message in place. The buttons carry the lesson's number and the choice
(`puluc:learn:<lesson>:<choice>`), so the tutorial keeps no state and survives a restart of the bot.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.cogs.games.boards import MAX_MOVE_BUTTONS, board_texts
from bot.cogs.games.texts import move_label, move_sentence
from bot.learning.lessons import LESSONS, Lesson, Verdict, lesson_at
from bot.limits import RULES
from bot.services import compute_of, pictures_of, theme_of
from bot.ui.describe import describe_board
from bot.ui.i18n import join_list, language_for, t
from bot.ui.pictures import BoardRequest, draw_board
from bot.ui.replies import report_error
from bot.ui.views.components import admitted
from puluc import Position

LESSON_FILE = "lesson.png"
COLOUR_LESSON = 0x3BA55D
COLOUR_WRONG = 0xED4245
PREFIX = "puluc:learn:"
#: A choice button's custom id: the lesson's number and the move (notation) or answer; or next / play.
TEMPLATE = r"puluc:learn:(?P<lesson>\d{1,2}):(?P<choice>[0-9A-Za-z:]{1,8})"
NEXT = "next"
PLAY = "play"
BUTTONS_PER_ROW = 5


@dataclass(frozen=True)
class Screen:
    """One state of the tutorial's message: its embed, its picture (None keeps the one shown), its buttons."""

    embed: discord.Embed
    png: bytes | None
    description: str | None
    view: discord.ui.View

    def files(self) -> list[discord.File]:
        if self.png is None:
            return []
        return [discord.File(io.BytesIO(self.png), filename=LESSON_FILE, description=self.description)]


def names(lesson: Lesson, member: str, lang: str) -> dict[str, str]:
    """Who sits where on a lesson's board: the member is A1, a teammate A2, the other side B."""
    found = {}
    for seat in lesson.rules.seats:
        if seat == "A1":
            found[seat] = member
        elif seat.startswith("A"):
            found[seat] = t("learn.teammate", lang)
        else:
            found[seat] = t("learn.opponent", lang)
    return found


def choice_label(lesson: Lesson, position: Position, choice: str, number: int, lang: str) -> str:
    """A choice's button: a move as the game's buttons say it (numbered like the board's badges), or an answer."""
    if lesson.is_question:
        key = "learn.five.answer" if lesson.key == "five" else "learn.village.answer"
        return t(key, lang, count=int(choice))[:80]
    from puluc import Move

    return f"{number}. {move_label(position.move_effect(Move.parse(choice)), lang)}"[:80]


class LearnButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A choice in a lesson, the next lesson, or the game against easy at the end."""

    def __init__(self, lesson: int, choice: str, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"{PREFIX}{lesson}:{choice}"), row=row
        )
        self.lesson = lesson
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LearnButton:
        return cls(int(match["lesson"]), match["choice"])

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return await admitted(interaction)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await on_click(interaction, self.lesson, self.choice)
        except Exception as exc:  # noqa: BLE001 - a component's last resort: the member is told, the error logged
            await report_error(interaction, exc)


def _lesson_embed(lesson: Lesson, index: int, lang: str, colour: int = COLOUR_LESSON) -> discord.Embed:
    embed = discord.Embed(
        title=t("learn.heading", lang, number=index + 1, count=len(LESSONS),
                title=t(f"learn.{lesson.key}.title", lang)),
        description=t(f"learn.{lesson.key}.text", lang),
        colour=colour,
    )
    embed.set_image(url=f"attachment://{LESSON_FILE}")
    return embed


def choices_view(lesson: Lesson, index: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    position = lesson.position()
    for number, choice in enumerate(lesson.choices(), start=1):
        view.add_item(LearnButton(index, choice, label=choice_label(lesson, position, choice, number, lang),
                                  style=discord.ButtonStyle.primary, row=(number - 1) // BUTTONS_PER_ROW))
    return view


def after_view(index: int, lang: str) -> discord.ui.View:
    """After a lesson's right choice: the next lesson, or at the end a game against easy and the start again."""
    view = discord.ui.View(timeout=None)
    if index + 1 < len(LESSONS):
        view.add_item(LearnButton(index + 1, NEXT, label=t("learn.next", lang), style=discord.ButtonStyle.success))
    else:
        view.add_item(LearnButton(index, PLAY, label=t("learn.play", lang), style=discord.ButtonStyle.success))
        view.add_item(LearnButton(0, NEXT, label=t("learn.again", lang)))
    return view


async def _draw(interaction: discord.Interaction[Any], lesson: Lesson, position: Position, lang: str, *,
                labelled: bool, happened: str | None = None) -> tuple[bytes, str]:
    seats = names(lesson, interaction.user.display_name, lang)
    throws = lesson.sticks() if position.pending else ()
    theme = await theme_of(interaction.client, interaction.guild_id)
    request = BoardRequest(position=position, last=None, throws=throws, names=seats, texts=board_texts(lang),
                           labels_up_to=MAX_MOVE_BUTTONS if labelled else 0, bar_ms=0, seed=0, seq=0, theme=theme)
    # A lesson's picture is the same every time for the same member, words and palette: kept with the rules
    # pictures, drawn in their lane (the games' boards go first).
    kept = pictures_of(interaction.client)
    key = ("lesson", f"{lesson.key}:{position.to_ppn()}:{seats['A1']}", f"{lang}/{theme}")
    png = kept.get(key) if kept is not None else None
    if png is None:
        png = await compute_of(interaction.client).run_in(RULES.lane.name, draw_board, request)
        if kept is not None:
            kept.put(key, png)
    return png, describe_board(position, lang, seats, throws=throws or None, happened=happened)


async def lesson_screen(interaction: discord.Interaction[Any], index: int, lang: str) -> Screen:
    """Lesson `index` as it starts: its board with the throws in hand, its words and a button per choice."""
    lesson = lesson_at(index)
    png, description = await _draw(interaction, lesson, lesson.position(), lang, labelled=not lesson.is_question)
    return Screen(_lesson_embed(lesson, index, lang), png, description, choices_view(lesson, index, lang))


def verdict_text(lesson: Lesson, verdict: Verdict, lang: str) -> str:
    """Why a choice was right or wrong, in the game's words."""
    values = dict(verdict.values)
    if lesson.key == "five":
        throws = values["throws"]
        assert isinstance(throws, list)  # every answer offered is how often some throw comes
        return t(verdict.reason, lang, ways=values["ways"], throws=join_list([str(v) for v in throws], lang))
    if lesson.key == "village":
        return t(verdict.reason, lang, marked=values["marked"], value=values["value"], ways=values["ways"])
    text = t(verdict.reason, lang)
    if not verdict.right and verdict.played is not None:
        text = t("learn.that_move", lang, move=move_label(verdict.played, lang), why=text)
    return text


async def on_click(interaction: discord.Interaction[Any], index: int, choice: str) -> None:
    lang = language_for(interaction.locale)
    if choice == PLAY:
        await play_easy(interaction)
        return
    if choice == NEXT:
        await interaction.response.defer()
        screen = await lesson_screen(interaction, index, lang)
        await interaction.edit_original_response(embed=screen.embed, attachments=screen.files(), view=screen.view)
        return
    lesson = lesson_at(index)
    verdict = lesson.answer(choice)
    if not verdict.right:
        # Nothing changes but the words: the same board, the same buttons, and why that was not it.
        embed = _lesson_embed(lesson, index, lang, COLOUR_WRONG)
        embed.add_field(name=t("learn.wrong", lang), value=verdict_text(lesson, verdict, lang)[:1024], inline=False)
        await interaction.response.edit_message(embed=embed, view=choices_view(lesson, index, lang))
        return
    await interaction.response.defer()
    embed = _lesson_embed(lesson, index, lang)
    said = verdict_text(lesson, verdict, lang)
    embed.add_field(name=t("learn.right", lang), value=said[:1024], inline=False)
    if index + 1 == len(LESSONS):
        embed.add_field(name=t("learn.done_title", lang), value=t("learn.done", lang), inline=False)
    after = verdict.after if verdict.after is not None else lesson.position()
    happened = None
    if verdict.played is not None:  # the board's words say the move as a game's narration would
        happened = move_sentence(verdict.played, lesson.rules, interaction.user.display_name, lang)
    png, description = await _draw(interaction, lesson, after, lang, labelled=False, happened=happened)
    await interaction.edit_original_response(
        embed=embed, view=after_view(index, lang),
        attachments=[discord.File(io.BytesIO(png), filename=LESSON_FILE, description=description)],
    )


async def play_easy(interaction: discord.Interaction[Any]) -> None:
    """The tutorial's last step: a game against easy in this channel, as `/puluc ai difficulty:easy` starts it."""
    get_cog = getattr(interaction.client, "get_cog", None)  # a Bot or an AutoShardedBot
    lobby = get_cog("Lobby") if get_cog is not None else None
    # Not isinstance: loading an extension executes its module anew, so the loaded cog's class is not the one
    # this module imported.
    if lobby is None or not isinstance(getattr(lobby, "ai", None), app_commands.Command):
        raise RuntimeError("the Lobby cog is not loaded")
    # The command's own code, with its checks (a game already here, the open-games cap, the cool-down): an app
    # command's callback is the cog's unbound method, which discord.py's types do not say.
    start: Any = lobby.ai.callback
    await start(lobby, interaction, "easy", None)
