"""The Discord Activity: the channel's live game on a board the member to move plays by touching it, served by
the web companion beside its pages and played through the same game sessions as the game message's buttons.

Optional by design: it is on only when DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are set (docs/OPERATIONS.md,
Discord Activity). The web companion mounts it with `bot.activity.routes.add_activity_routes`. The page's
script is built from activity/ (npm, esbuild) into `bot/activity/static`, which ships in the Python package: no
Node at run time.
This package never changes a game but through `bot.sessions` and never shows one but through the presenter.
It imports nothing itself: `bot.activity.drawing` runs in the compute workers, which need none of the web.
"""
