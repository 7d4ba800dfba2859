"""A real browser for the web pages' tests: Debian's chromium driven by Playwright (never Playwright's own
browser download). Without one the tests skip with one reason, unless PULUC_REQUIRE_BROWSER=1 (set by .ci/run),
which makes that a failure."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import pytest

if TYPE_CHECKING:
    from playwright.async_api import Browser

CHROMIUM = Path("/usr/bin/chromium")
REQUIRE_VARIABLE = "PULUC_REQUIRE_BROWSER"


def unavailable(reason: str) -> NoReturn:
    message = (f"no browser for the web pages' tests: {reason} (apt-get install chromium, and pip install "
               "playwright, which .ci/run does)")
    if os.environ.get(REQUIRE_VARIABLE) == "1":
        pytest.fail(f"{message} ({REQUIRE_VARIABLE}=1)", pytrace=False)
    pytest.skip(message)


def _installed() -> bool:
    return CHROMIUM.exists()


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    if not _installed():
        unavailable(f"{CHROMIUM} is missing")
    try:
        from playwright.async_api import Error, async_playwright
    except ImportError:
        unavailable("the playwright package is not installed")
    async with async_playwright() as playwright:
        try:
            browser = await playwright.chromium.launch(executable_path=str(CHROMIUM),
                                                       args=["--no-sandbox", "--disable-gpu"])
        except Error as exc:
            unavailable(f"{CHROMIUM} does not start: {str(exc).splitlines()[0]}")
        try:
            yield browser
        finally:
            await browser.close()
