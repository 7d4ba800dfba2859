"""The health listener of a running bot (in SimCord): /healthz answers, /readyz turns 503 naming what is down
(the gateway, the database) and 200 again once it is back, /metrics is valid Prometheus text whose counters and
histograms move as a game is played."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import simcord
from prometheus_client.parser import text_string_to_metric_families

from bot.app import PulucBot, ShardedPulucBot
from bot.config import Config
from bot.ops.health import HealthServer, HealthUnavailable
from bot.storage.shards import Shards
from bot.storage.urls import parse_database_url
from tests.helpers import World, accepted_challenge, game_message, make_config, mentioned, move_ids
from tests.postgres import TcpProxy, fresh_schema, through
from tests.test_docs import sample_block

DASHBOARD = Path(__file__).parents[3] / "docs" / "grafana-dashboard.json"
OPERATIONS = Path(__file__).parents[3] / "docs" / "OPERATIONS.md"


def shape(line: str) -> str:
    """A /readyz line without its detail: "database: failed (...)"."""
    return re.sub(r" \(.*\)$", " (...)", line)


async def get(port: int, path: str) -> tuple[int, str]:
    """GET `path` from the listener on 127.0.0.1:`port`, as a probe or Prometheus would: (status, body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        answer = await reader.read()
    finally:
        writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, body.decode("utf-8")


@pytest.fixture
async def listener(simcord_env: simcord.Env) -> AsyncIterator[HealthServer]:
    """The health listener of the test's bot, on a free port of 127.0.0.1."""
    bot = simcord_env.bot
    assert isinstance(bot, PulucBot)
    server = HealthServer(bot, "127.0.0.1", 0)
    await server.start()
    yield server
    await server.stop()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a /metrics answer, parsed by prometheus_client's own parser: (name, labels) -> value."""
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


# -- the gateway ---------------------------------------------------------------------------------------------


class TestGateway:
    @pytest.fixture
    def config(self, tmp_path: Path) -> Config:
        # SHARD_COUNT=1: discord.py's sharded client, whose shard SimCord can disconnect and reconnect.
        return make_config(tmp_path / "puluc.db", shards=Shards.whole(1))

    async def test_readyz_is_503_naming_the_gateway_while_it_is_down_and_200_once_back(
        self, simcord_env: simcord.Env, listener: HealthServer
    ) -> None:
        status, body = await get(listener.port, "/readyz")
        assert (status, body.splitlines()[0]) == (200, "ready"), body
        assert "gateway: ok (1 shards connected)" in body.splitlines()

        bot = simcord_env.bot
        assert isinstance(bot, ShardedPulucBot)
        shard = bot.get_shard(0)
        assert shard is not None
        await shard.disconnect()
        status, body = await get(listener.port, "/readyz")
        assert (status, body.splitlines()[0]) == (503, "not ready: gateway"), body
        assert "gateway: failed (shard 0 disconnected)" in body.splitlines()
        assert await get(listener.port, "/healthz") == (200, "ok\n"), "the process itself still answers"
        metrics = samples((await get(listener.port, "/metrics"))[1])
        assert metrics[("puluc_gateway_connected", (("shard", "0"),))] == 0

        await shard.reconnect()
        await simcord_env.settle()
        status, body = await get(listener.port, "/readyz")
        assert (status, body.splitlines()[0]) == (200, "ready"), body


async def test_readyz_reports_every_check_of_a_ready_bot(listener: HealthServer) -> None:
    status, body = await get(listener.port, "/readyz")
    assert status == 200
    lines = body.splitlines()
    assert lines[0] == "ready"
    assert [line.split(":", 1)[0] for line in lines[1:]] == ["gateway", "shards", "database", "workers"]
    assert lines[2] == "shards: ok (every server claimed)"
    assert lines[4] == "workers: ok (boards and the AI run in threads (WORKERS=0))"


async def test_readyz_is_503_naming_the_shards_once_another_process_took_this_ones_over(
    listener: HealthServer, config: Config
) -> None:
    database = sqlite3.connect(config.database.where)
    try:
        (owner,) = database.execute("SELECT owner FROM shard_leases").fetchone()
        with database:
            database.execute("UPDATE shard_leases SET owner = 'another host:1:abc'")
        status, body = await get(listener.port, "/readyz")
        assert (status, body.splitlines()[0]) == (503, "not ready: shards"), body
        assert body.splitlines()[2] == "shards: failed (every server: shard 0 no longer held by this process)"
        with database:
            database.execute("UPDATE shard_leases SET owner = ?", (owner,))
        assert (await get(listener.port, "/readyz"))[0] == 200
    finally:
        database.close()


async def test_unknown_paths_are_not_found(listener: HealthServer) -> None:
    status, _ = await get(listener.port, "/")
    assert status == 404


async def test_a_port_in_use_is_one_line_saying_what_to_set(listener: HealthServer, simcord_env: simcord.Env) -> None:
    bot = simcord_env.bot
    assert isinstance(bot, PulucBot)
    with pytest.raises(HealthUnavailable) as refused:
        await HealthServer(bot, "127.0.0.1", listener.port).start()
    assert str(refused.value).startswith(f"the health listener cannot listen on 127.0.0.1:{listener.port} (")
    assert "set HEALTH_PORT to a free port" in str(refused.value)


class TestWorkers:
    @pytest.fixture
    def config(self, tmp_path: Path) -> Config:
        return make_config(tmp_path / "puluc.db", workers=1)  # one worker process, as deployed

    async def test_readyz_asks_the_workers_for_a_job_and_is_503_once_they_are_gone(
        self, simcord_env: simcord.Env, listener: HealthServer
    ) -> None:
        status, body = await get(listener.port, "/readyz")
        assert (status, body.splitlines()[4]) == (200, "workers: ok (1 worker answers)"), body
        bot = simcord_env.bot
        assert isinstance(bot, PulucBot) and bot.compute is not None
        await bot.compute.close()
        status, body = await get(listener.port, "/readyz")
        assert (status, body.splitlines()[0]) == (503, "not ready: workers"), body
        assert body.splitlines()[4] == "workers: failed (RuntimeError: the compute pool is closed)"


# -- the database --------------------------------------------------------------------------------------------


class TestDatabase:
    @pytest.fixture
    async def postgres(self) -> AsyncIterator[tuple[str, TcpProxy]]:
        """A fresh schema reached through a proxy that can play the server going down and coming back."""
        async with fresh_schema("health") as url:
            parts = urlsplit(url)
            proxy = TcpProxy(parts.hostname or "127.0.0.1", parts.port or 5432)
            await proxy.start()
            try:
                yield through(url, proxy), proxy
            finally:
                await proxy.close()

    @pytest.fixture
    def config(self, postgres: tuple[str, TcpProxy], tmp_path: Path) -> Config:
        return make_config(tmp_path / "unused.db", database=parse_database_url(postgres[0]))

    @pytest.mark.simcord(settle_timeout=2.5)
    async def test_readyz_is_503_naming_the_database_while_it_is_down_and_200_once_back(
        self, listener: HealthServer, postgres: tuple[str, TcpProxy]
    ) -> None:
        _, proxy = postgres
        assert (await get(listener.port, "/readyz"))[0] == 200
        before = samples((await get(listener.port, "/metrics"))[1])

        await proxy.stop()
        status, body = await get(listener.port, "/readyz")
        assert (status, body.splitlines()[0]) == (503, "not ready: database"), body
        assert "database: failed (unreachable: " in body
        # docs/OPERATIONS.md shows this answer: the same lines, each check's detail aside.
        sample = sample_block(OPERATIONS, "A `/readyz` answer while the database is down:")
        assert [shape(line) for line in body.splitlines()] == [shape(line) for line in sample]
        after = samples((await get(listener.port, "/metrics"))[1])
        errors = ("puluc_database_errors_total", (("reason", "unreachable"),))
        assert after[errors] > before.get(errors, 0.0)

        await proxy.start()
        status, body = await get(listener.port, "/readyz")
        assert (status, body.splitlines()[0]) == (200, "ready"), body


# -- metrics -------------------------------------------------------------------------------------------------


async def test_metrics_move_as_a_game_is_played(world: World, listener: HealthServer) -> None:
    before = samples((await get(listener.port, "/metrics"))[1])
    session = await accepted_challenge(world)
    for _ in range(3):
        board = game_message(world.games)
        (mover,) = mentioned(board)
        await world.member(mover).click(board, custom_id=move_ids(board)[0])
    wrong = await world.alice.slash(world.games, "puluc move", move="9:9")  # not a move of this game
    assert wrong.response is not None and wrong.response.ephemeral

    status, text = await get(listener.port, "/metrics")
    assert status == 200
    after = samples(text)

    def moved(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0.0) - before.get(key, 0.0)

    assert moved("puluc_interactions_total", kind="/puluc challenge", outcome="ok") == 1
    assert moved("puluc_interactions_total", kind="button puluc:accept", outcome="ok") == 1
    assert moved("puluc_interactions_total", kind="button puluc:move", outcome="ok") == 3
    assert moved("puluc_interactions_total", kind="/puluc move", outcome="refused") == 1
    assert moved("puluc_board_visible_seconds_count") >= 3, "every click's board was measured"
    assert moved("puluc_board_visible_seconds_bucket", le="+Inf") == moved("puluc_board_visible_seconds_count")
    variant, side = session.state.variant, len(session.state.rules.seats) // 2
    assert after[("puluc_open_games", (("size", f"{side}v{side}"), ("status", "running"),
                                       ("variant", variant)))] == 1
    assert ("puluc_worker_jobs", (("kind", "draw_board"),)) in after, "the boards went through the pool"
    assert after[("puluc_timer_lag_seconds", ())] >= 0
    assert after[("puluc_gateway_connected", (("shard", "0"),))] == 1
    assert any(name == "puluc_build_info" for name, _ in after)

    # Every series the Grafana dashboard in docs/ plots is one the bot exports.
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    plotted = {name for panel in dashboard["panels"] for target in panel["targets"]
               for name in re.findall(r"\bpuluc_[a-z_]+", target["expr"])}
    families = {family.name for family in text_string_to_metric_families(text)}
    for name in plotted:
        assert re.sub(r"_(total|bucket|count|sum|info)$", "", name) in families, f"the dashboard plots {name}"


async def test_the_container_probe_exits_0_when_ready_and_1_with_the_reason_when_not(
    listener: HealthServer, tmp_path: Path
) -> None:
    async def probe(**environ: str) -> tuple[int, str, str]:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.ops.probe", env={"PATH": "/usr/bin:/bin", **environ},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=Path(__file__).parents[3],
        )
        out, err = await process.communicate()
        assert process.returncode is not None
        return process.returncode, out.decode(), err.decode()

    code, out, _ = await probe(HEALTH_PORT=str(listener.port), HEALTH_HOST="0.0.0.0")
    assert (code, out.splitlines()[0]) == (0, "ready")
    code, _, err = await probe()
    assert (code, err.strip()) == (1, "HEALTH_PORT is not set: the bot's health listener is off")
    await listener.stop()
    code, _, err = await probe(HEALTH_PORT=str(listener.port))
    assert code == 1 and err.startswith(f"no answer from http://127.0.0.1:{listener.port}/readyz")
