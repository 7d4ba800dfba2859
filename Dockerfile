# Puluc for Discord: a small image that runs the bot as a non-root user with its database in /data.
#   docker build -t puluc-bot .
#   docker run -d --env-file .env -v puluc-data:/data puluc-bot
# The Discord Activity's page script (activity/): its locked npm packages, bundled by esbuild into
# bot/activity/static, which the bot's stage below copies in. Node is needed here only, never at run time.
FROM node:20.18.1-bookworm-slim AS activity
WORKDIR /src/activity
COPY activity/package.json activity/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY activity ./
RUN npm run build

FROM python:3.12.8-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The board images are drawn with DejaVu Sans.
RUN apt-get update \
 && apt-get install -y --no-install-recommends fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src

# Dependencies only, at the versions in requirements.lock (checked against their hashes, the same the tests ran
# on): this layer is rebuilt when they change, not when the code does.
COPY requirements.lock ./
RUN pip install --require-hashes -r requirements.lock

COPY pyproject.toml README.md ./
COPY puluc ./puluc
COPY renderer ./renderer
COPY bot ./bot
COPY --from=activity /src/bot/activity/static ./bot/activity/static
RUN pip install --no-deps . \
 && rm -rf /src

RUN useradd --system --uid 10001 --user-group --create-home --home-dir /home/puluc puluc \
 && mkdir /data \
 && chown puluc:puluc /data
USER puluc
# No .env file is read inside the container (compose's env_file and docker run --env-file pass its values
# as variables), so a relative DATABASE_URL is relative to /: the default (sqlite:///data/puluc.db, as in
# .env.example) also lands in the volume.
WORKDIR /

ENV DATABASE_URL=sqlite:////data/puluc.db
VOLUME ["/data"]

# The bot handles SIGTERM: it stops taking interactions, finishes those in flight, closes the database.
STOPSIGNAL SIGTERM
# Healthy while the bot's own /readyz says it serves players: connected to Discord, its shards claimed, the
# database answering, the workers alive (docs/OPERATIONS.md, Health and metrics). The listener is on inside the
# container only (127.0.0.1:8080); set HEALTH_HOST=0.0.0.0 and publish the port to scrape /metrics from outside.
ENV HEALTH_PORT=8080
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot.ops.probe"]

CMD ["puluc-bot"]
