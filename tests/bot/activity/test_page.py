"""The Activity's page as Discord's frame loads it: the built script and style, the boot data, the headers."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from aiohttp import web

from bot.activity.routes import ACTIVITY, STATIC, mount_activity
from bot.services import services
from tests.helpers import ACTIVITY_CLIENT_ID as CLIENT_ID
from tests.helpers import ActivityPage as Page
from tests.helpers import activity_config, make_config

ROOT = Path(__file__).parents[3]


async def test_the_page_loads_its_bundled_script_and_style_under_a_strict_policy(page: Page) -> None:
    response = await page.client.get("/activity/?frame_id=f&instance_id=i&platform=mobile",
                                     headers={"Accept-Language": "es-419,es;q=0.9,en;q=0.5"})
    assert response.status == 200
    html = await response.text()
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "connect-src 'self';" in policy and "unsafe" not in policy
    assert "frame-ancestors 'self' https://discord.com" in policy
    assert re.findall(r'(?:src|href)="([^"]+)"', html) == ["static/app.css", "static/app.js"], (
        "relative to the page, so the same files load under Discord's URL mapping and on the web companion")
    found = re.search(r'<script type="application/json" id="boot">(.*?)</script>', html, re.DOTALL)
    assert found is not None
    boot = json.loads(found[1])
    assert boot["client_id"] == str(CLIENT_ID)
    assert boot["lang"] == "es" and boot["texts"]["signing_in"] == "Iniciando sesión con Discord…"
    assert '<html lang="es">' in html
    for asset, kind in (("app.js", "javascript"), ("app.css", "text/css")):
        served = await page.client.get(f"/activity/static/{asset}")
        assert served.status == 200 and kind in served.headers["Content-Type"]


async def test_the_activitys_root_without_a_slash_keeps_discords_query(page: Page) -> None:
    response = await page.client.get("/activity?frame_id=f&instance_id=i", allow_redirects=False)
    assert response.status == 308
    assert response.headers["Location"] == "/activity/?frame_id=f&instance_id=i"


def test_the_built_page_ships_in_the_python_package() -> None:
    for name in ("index.html", "app.js", "app.css"):
        assert (STATIC / name).is_file(), f"run `npm run build` in activity/ ({name} missing)"
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert package_data["bot.activity"] == ["static/*"]
    built = (STATIC / "app.js").read_text()
    assert "frame_id query param is not defined" in built, "the Embedded App SDK is bundled in"
    source = (ROOT / "activity" / "src" / "index.html").read_text()
    assert (STATIC / "index.html").read_text() == source, "the shipped page is the built one"


async def test_the_web_companion_mounts_the_activity_only_when_it_is_configured(page: Page, tmp_path: Path) -> None:
    games = services(page.world.env.bot)
    off = web.Application()
    assert mount_activity(off, make_config(tmp_path / "off.db"), games) is None
    assert not [route for route in off.router.routes() if route.resource is not None
                and route.resource.canonical.startswith("/activity")]
    on = web.Application()
    activity = mount_activity(on, activity_config(tmp_path / "on.db"), games)
    assert activity is not None and on[ACTIVITY] is activity
    assert {"/activity/", "/activity/api/session", "/activity/api/move"} <= {
        route.resource.canonical for route in on.router.routes() if route.resource is not None}
