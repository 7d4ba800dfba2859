"""Running the bot for months: health, readiness and metrics over HTTP (`bot.ops.health`), the counters and
histograms and the hooks that move them (`bot.ops.metrics`), and the container's health probe
(`bot.ops.probe`). See docs/OPERATIONS.md, Health and metrics."""
