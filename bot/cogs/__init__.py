"""Feature cogs: the Discord glue of the bot. Each parses, checks, defers and replies; game flow lives in
`bot.sessions`."""
