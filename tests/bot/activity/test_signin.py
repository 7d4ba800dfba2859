"""Signing in to the Activity: the code exchanged at Discord's token endpoint, the member, the Activity
instance and the server checked, and every refusal said precisely (against a fake Discord)."""

from __future__ import annotations

from bot.activity.routes import MEMBER_BURST, MEMBER_STREAMS
from bot.activity.tickets import TICKET_SECONDS
from tests.helpers import ACTIVITY_INSTANCE as INSTANCE
from tests.helpers import ActivityPage as Page
from tests.helpers import accepted_challenge


async def test_a_member_of_the_instance_signs_in_to_the_channels_game_in_their_language(page: Page) -> None:
    world = page.world
    session = await accepted_challenge(world)
    status, body = await page.sign_in(world.alice.id)
    assert status == 200, body
    assert body["user"] == {"id": str(world.alice.id), "name": "Alice"}
    assert body["access_token"] in page.discord.tokens, "the page authenticates with the token Discord issued"
    assert body["lang"] == "fr" and body["texts"]["moves"] == "Vos coups"
    game = body["game"]
    assert game["status"] == "running" and game["game_id"] == str(session.game_id) and game["seq"] == session.state.seq
    seat = session.state.seat_of(world.alice.id)
    assert seat is not None and game["you"] == seat.seat
    to_move = session.state.to_move
    assert bool(game["moves"]) == (to_move is not None and to_move.user_id == world.alice.id)
    assert page.discord.calls == [
        "POST /api/v10/oauth2/token",
        "GET /api/v10/users/@me",
        f"GET /api/v10/applications/{page.discord.client_id}/activity-instances/{INSTANCE}",
        f"GET /api/v10/guilds/{world.guild.id}/members/{world.alice.id}",
    ]


async def test_a_code_discord_refuses_is_a_bad_code_and_a_code_is_good_once(page: Page) -> None:
    response = await page.client.post("/activity/api/session", json={"code": "made-up", "instance_id": INSTANCE})
    assert response.status == 401
    body = await response.json()
    assert body["error"] == "activity.error.bad_code"
    assert body["message"] == "Discord did not confirm your sign-in; close the Activity and open it again."
    code = page.discord.code_for(page.world.bob.id)
    first = await page.client.post("/activity/api/session", json={"code": code, "instance_id": INSTANCE})
    again = await page.client.post("/activity/api/session", json={"code": code, "instance_id": INSTANCE})
    assert (first.status, again.status) == (200, 401)


async def test_a_wrong_client_secret_is_refused_by_discord_and_never_reaches_a_ticket(page: Page) -> None:
    page.discord.client_secret = "another-secret"
    status, body = await page.sign_in(page.world.alice.id)
    assert (status, body["error"]) == (401, "activity.error.bad_code")
    assert "ticket" not in body


async def test_an_instance_discord_does_not_know_is_refused(page: Page) -> None:
    status, body = await page.sign_in(page.world.alice.id, instance="i-made-up")
    assert (status, body["error"]) == (403, "activity.error.wrong_instance")
    assert body["message"] == ("Discord does not list you in this Activity; close it and open it again from the "
                               "game message.")


async def test_a_member_who_is_not_in_the_instance_is_refused(page: Page) -> None:
    status, body = await page.sign_in(page.world.dave.id)  # dave is in the server, not in the Activity
    assert (status, body["error"]) == (403, "activity.error.wrong_instance")


async def test_a_member_of_another_server_is_refused(page: Page) -> None:
    world = page.world
    stranger = 4242
    page.discord.add_user(stranger, "mallory", servers=[999])
    page.discord.open_instance("i-2", world.guild.id, world.games.id, [stranger])
    status, body = await page.sign_in(stranger, instance="i-2")
    assert (status, body["error"]) == (403, "activity.error.other_server")
    assert body["message"] == "You are not a member of the server this game is played in."


async def test_an_activity_opened_outside_a_server_is_refused(page: Page) -> None:
    page.discord.open_instance("i-dm", None, 777, [page.world.alice.id])
    status, body = await page.sign_in(page.world.alice.id, instance="i-dm")
    assert (status, body["error"]) == (403, "activity.error.other_server")


async def test_discord_not_answering_is_said_as_such(page: Page) -> None:
    page.activity.api._base = "http://127.0.0.1:9"  # nothing listens on the discard port
    status, body = await page.sign_in(page.world.alice.id)
    assert (status, body["error"]) == (503, "activity.error.discord_unavailable")


async def test_a_sign_in_without_a_code_is_a_bad_request(page: Page) -> None:
    sent: object
    for sent in ({}, {"code": "", "instance_id": INSTANCE}, {"code": 5, "instance_id": INSTANCE}, []):
        response = await page.client.post("/activity/api/session", json=sent)
        assert response.status == 400
        assert (await response.json())["error"] == "activity.error.bad_request"
    response = await page.client.post("/activity/api/session", data=b"not json")
    assert response.status == 400
    assert page.discord.calls == [], "nothing reached Discord"


async def test_an_expired_session_is_refused_and_a_renewed_one_lives_on(page: Page) -> None:
    ticket = await page.ticket(page.world.alice.id)
    page.clock.advance(TICKET_SECONDS - 60)
    status, renewed = await page.call("POST", "renew", ticket)
    assert status == 200
    page.clock.advance(120)
    status, body = await page.call("GET", "game", ticket)
    assert (status, body["error"]) == (401, "activity.error.session_expired")
    assert body["message"] == "Votre session a expiré\u202f; nouvelle connexion en cours.", "in the member's language"
    status, _ = await page.call("GET", "game", renewed["ticket"])
    assert status == 200
    status, body = await page.call("POST", "renew", ticket)
    assert (status, body["error"]) == (401, "activity.error.session_expired"), "an expired ticket renews nothing"


async def test_a_forged_or_missing_session_is_refused(page: Page) -> None:
    ticket = await page.ticket(page.world.alice.id)
    payload, signature = ticket.split(".")
    bob_payload = (await page.ticket(page.world.bob.id)).split(".")[0]
    for forged in (f"{bob_payload}.{signature}", f"{payload}.{signature[:-2]}xx", "garbage", f"{payload}."):
        status, body = await page.call("GET", "game", forged)
        assert (status, body["error"]) == (401, "activity.error.bad_session"), forged
    status, body = await page.call("GET", "game", None)
    assert (status, body["error"]) == (401, "activity.error.bad_session")


async def test_a_channel_without_a_game_says_how_to_start_one(page: Page) -> None:
    status, body = await page.sign_in(page.world.bob.id)
    assert status == 200
    assert body["game"] == {"status": "none",
                            "message": "No game is running in this channel. Start one with /puluc new, and the "
                                       "board appears here."}


async def test_a_member_who_left_the_activity_gets_no_fresh_session(page: Page) -> None:
    ticket = await page.ticket(page.world.bob.id)
    page.discord.instances[INSTANCE]["users"].remove(page.world.bob.id)
    status, body = await page.call("POST", "renew", ticket)
    assert (status, body["error"]) == (403, "activity.error.wrong_instance")


async def test_a_member_who_floods_the_board_is_slowed_down(page: Page) -> None:
    ticket = await page.ticket(page.world.carol.id)
    answers = [await page.call("GET", "game", ticket) for _ in range(MEMBER_BURST + 1)]
    assert [status for status, _ in answers[:MEMBER_BURST]] == [200] * MEMBER_BURST
    status, body = answers[-1]
    assert (status, body["error"]) == (429, "activity.error.too_fast")
    assert body["message"] == "Трохи повільніше: дошка отримала від вас забагато запитів одразу."
    other = await page.ticket(page.world.bob.id)
    assert (await page.call("GET", "game", other))[0] == 200, "one member's flood is theirs alone"


async def test_a_member_holds_a_few_live_streams_at_most(page: Page) -> None:
    ticket = await page.ticket(page.world.bob.id)
    headers = {"Authorization": f"Bearer {ticket}"}
    streams = [await page.client.get("/activity/api/live", headers=headers) for _ in range(MEMBER_STREAMS)]
    assert all(stream.status == 200 for stream in streams)
    refused = await page.client.get("/activity/api/live", headers=headers)
    assert refused.status == 429 and (await refused.json())["error"] == "activity.error.too_fast"
    for stream in streams:
        stream.close()
