"""The web companion: read-only pages of the games, replays, leaderboards, profiles and tournaments.

`bot.web.server` serves them (inside the bot's process when WEB_PORT is set, or alone with `puluc-bot web`),
`bot.web.hub` pushes a live game's or tournament's changes to its watchers by Server-Sent Events, and
`bot.web.pages` turns a request into a template's values. Pages only read: nothing here writes to the database
or reaches Discord, and a page reads only what its address names (one game, one server's leaderboard page).
"""
