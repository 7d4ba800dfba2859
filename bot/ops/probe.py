"""The container's health check: `python -m bot.ops.probe` asks the bot's own `/readyz` and exits 0 when it is
ready, 1 when not (printing why) or when nothing answers. `--web` asks the web pages' `/healthz` instead
(WEB_PORT and WEB_HOST; the `puluc-bot web` container).

It reads HEALTH_PORT and HEALTH_HOST from the environment, as the bot does inside the container (compose's
env_file and `docker run --env-file` pass `.env` as variables), and asks 127.0.0.1 when the bot listens on every
address. Standard library only: it runs every few seconds, so it starts in milliseconds and never loads the bot.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

TIMEOUT_SECONDS = 5.0


def main(argv: list[str] | None = None) -> int:
    web = "--web" in (sys.argv[1:] if argv is None else argv)
    prefix, path = ("WEB", "/healthz") if web else ("HEALTH", "/readyz")
    port = os.environ.get(f"{prefix}_PORT", "").strip()
    if not port:
        what = "the web pages are off" if web else "the bot's health listener is off"
        print(f"{prefix}_PORT is not set: {what}", file=sys.stderr)
        return 1
    host = os.environ.get(f"{prefix}_HOST", "").strip() or "127.0.0.1"
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    url = f"http://{host}:{port}{path}"
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_SECONDS) as answer:
            print(answer.read().decode("utf-8", "replace").strip())
            return 0
    except urllib.error.HTTPError as exc:  # 503: not ready, and the body says what is not
        print(exc.read().decode("utf-8", "replace").strip(), file=sys.stderr)
    except (OSError, ValueError) as exc:
        print(f"no answer from {url}: {exc}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
