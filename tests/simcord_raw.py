"""Deliver a component click to the simulated Discord the way the gateway would, without SimCord's checks.

SimCord's `click` only presses buttons the message shows now, as the person it belongs to, and waits for the
bot. Some behaviours need more: two clicks in flight at once, a click from a client still showing an old
version of the message, a tampered client. This uses SimCord's own payload builder (private API, see the
SimCord notes) and does not wait; call `env.settle()` afterwards.
"""

from __future__ import annotations

from typing import Any

import simcord
import simcord.interactions as sim_interactions
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType


def emit_click(env: simcord.Env, actor: simcord.MemberActor, message: Any, custom_id: str) -> Any:
    """Send a click on `custom_id` carrying the message as it is stored now; returns the interaction record."""
    backend = env.backend
    stored = backend.get_message(message.channel.id, message.id)
    record, payload = sim_interactions.base_payload(
        backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=stored.channel_id,
        guild_id=actor.guild.id,
        user_id=actor.id,
        data={"custom_id": custom_id, "component_type": ComponentType.BUTTON},
    )
    payload["message"] = dict(serializers.message_payload(backend, stored))
    record.source_message_id = stored.id
    backend.emit("INTERACTION_CREATE", payload)
    return record
