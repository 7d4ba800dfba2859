"""`/puluc learn` (the tutorial, `tutorial`) and `/puluc review` (a finished game's review, `reviews`): the
Discord glue over `bot.learning`."""
