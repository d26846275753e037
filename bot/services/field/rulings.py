"""Who rules on a live incident at a field meet (FIELD-OFF-1/2).

Officials are the league's commissioners (COMMON-ROLE-1). Their rank (FIELD-OFF-1) follows the league's official
roles: the commissioner role first, then the extra official roles in the order they were added; a server admin
holding none of them ranks last. An official who checks in for the night is present with that rank; a malfunction
or interference ruling goes to the highest-ranking official present who is not in the group concerned, or, when
every official present is in it, to the highest one, and the ruling is flagged `involved_official` (FIELD-OFF-2).
"""

from __future__ import annotations

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.field import malfunctions as malfunction_rules
from bot.rules.field.malfunctions import OfficialPresent, SloChoice
from bot.rules.refusals import RuleViolation
from bot.services.actor import Actor
from bot.services.field.facts import FieldContext, NightFacts, SeasonFacts
from bot.services.permissions import is_commissioner, require_commissioner
from storage.models import League, Player

ME = "you"  # the acting official's name among those present when they are not checked in


def official_rank(actor: Actor, league: League) -> int | None:
    """FIELD-OFF-1: 0 for the commissioner role, then the extra official roles in order; None for a non-official."""
    if not is_commissioner(actor, league):
        return None
    ranked = [league.commissioner_role_id, *league.extra_commissioner_role_ids]
    for rank, role in enumerate(ranked):
        if role is not None and role in actor.role_ids:
            return rank
    return len(ranked)


def concerned(facts: NightFacts, player_id: int) -> int:
    """The group concerned by an incident in this player's game: its number, or, for a late arrival's
    single-player game (FIELD-ATT-1), a group of their own."""
    group = next((c.group_number for c in facts.checkins if c.player_id == player_id), None)
    return group if group is not None else -player_id


async def require_slo(
    session: AsyncSession,
    actor: Actor,
    context: FieldContext,
    season: SeasonFacts,
    facts: NightFacts,
    group: int,
    *,
    doing: str,
) -> SloChoice:
    """FIELD-OFF-2: the actor must be the official who rules on an incident of `group` (see `concerned`)."""
    require_commissioner(actor, context.league, doing)
    query = select(Player.id).where(Player.league_id == context.league.id, Player.discord_user_id == actor.user_id)
    my_player = (await session.exec(query)).first()
    my_rank = official_rank(actor, context.league)
    assert my_rank is not None
    present: list[OfficialPresent] = []
    me = ME
    for c in facts.checkins:
        if c.player_id == my_player:
            me = str(c.player_id)
            present.insert(0, OfficialPresent(me, my_rank, concerned(facts, c.player_id)))  # ties rule for the actor
        elif c.official_rank is not None:
            present.append(OfficialPresent(str(c.player_id), c.official_rank, concerned(facts, c.player_id)))
    if me == ME:
        present.insert(0, OfficialPresent(ME, my_rank, None))
    choice = malfunction_rules.senior_league_official(present, group)
    if choice.official != me:
        name = season.names.get(int(choice.official), "another official")
        raise RuleViolation(
            "FIELD-OFF-2",
            f"{name} rules on this: the highest-ranking official present who is not in the group concerned. "
            "Ask them to enter the ruling.",
        )
    return choice
