"""COMMON-ROLE-1: who may do what. Discord's `default_permissions` is only a hint; this is the check."""

from __future__ import annotations

from bot.rules.refusals import PermissionDenied
from bot.services.actor import Actor
from storage.models import League


def is_commissioner(actor: Actor, league: League) -> bool:
    """Server admins, and members holding the league's commissioner role or one of its extra official roles."""
    roles = {league.commissioner_role_id, *league.extra_commissioner_role_ids} - {None}
    return actor.is_admin or not roles.isdisjoint(actor.role_ids)


def require_server_admin(actor: Actor, doing: str) -> None:
    if not actor.is_admin:
        raise PermissionDenied(
            f"Only server admins (Manage Server) can {doing}. Ask one of them, or ask for the permission."
        )


def require_commissioner(actor: Actor, league: League, doing: str) -> None:
    if not is_commissioner(actor, league):
        role = f"<@&{league.commissioner_role_id}>" if league.commissioner_role_id else "a server admin"
        raise PermissionDenied(
            f"Only commissioners of {league.name} can {doing}. That needs the {role} role; ask a commissioner."
        )
