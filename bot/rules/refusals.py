"""What every rejection is: a message that says what is wrong and how to fix it, and the rule it enforces.

Raised by the rules engine and by services; `bot.errors` turns any of these into an ephemeral reply.
"""

from __future__ import annotations

from collections.abc import Sequence


class Refusal(Exception):
    """A request the league cannot accept. `rule_id` is a CATALOG.md id when a catalog rule applies."""

    def __init__(self, message: str, *, rule_id: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule_id = rule_id

    def __str__(self) -> str:
        return f"{self.rule_id}: {self.message}" if self.rule_id else self.message


class RuleViolation(Refusal):
    """Breaks a numbered rule of the league's rule sheet."""

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(message, rule_id=rule_id)


class InvalidInput(Refusal):
    """A value that cannot be used (empty, too long, unknown zone…); names the option to fix."""


class NotFound(Refusal):
    """Names something that does not exist in this league."""


class PermissionDenied(Refusal):
    """The member lacks the role the action needs (COMMON-ROLE-1)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, rule_id="COMMON-ROLE-1")


class Conflict(Refusal):
    """Would duplicate something that must be unique (a team name, a registration…)."""


class Refusals(Refusal):
    """Several refusals of one request, listed together so that all of them can be fixed before trying again."""

    # A Discord message holds 2,000 characters: the list stops short of that, with room for the line saying so.
    MESSAGE_BUDGET = 1_820

    def __init__(self, heading: str, refusals: Sequence[Refusal]) -> None:
        lines = [heading]
        for shown, refusal in enumerate(refusals):
            line = f"• {refusal}"
            if sum(len(kept) + 1 for kept in lines) + len(line) > self.MESSAGE_BUDGET:
                lines.append(f"• …and {len(refusals) - shown} more: fix these, then send it again to see the rest.")
                break
            lines.append(line)
        super().__init__("\n".join(lines))
        self.refusals = tuple(refusals)


def refuse_all(refusals: Sequence[Refusal], heading: str) -> None:
    """Raise nothing, the one refusal as it is (its rule id shown once), or all of them under `heading`."""
    if len(refusals) == 1:
        raise refusals[0]
    if refusals:
        raise Refusals(heading.format(count=len(refusals)), refusals)
