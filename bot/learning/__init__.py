"""Learning the game: the tutorial's lessons (`lessons`) and a finished game's review (`review`).

Discord-free: the lessons are positions built by the engine from PPN with fixed throws, and what a member's
choice in one of them means; `bot.cogs.learn` shows them with buttons. Never imports discord.
"""
