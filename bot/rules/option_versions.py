"""A league's options as dated versions (COMMON-LEAGUE-2): a change takes effect from a date, and the weeks
played before it keep the options they were played under.

A league stores its newest options and, oldest first, the versions they replaced, each with the date it stopped
applying (`until`, exclusive). The first version applies from the league's beginning. Pure: the stored shape in,
the version in effect for a day out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from itertools import pairwise
from typing import Any

Options = Mapping[str, Any]  # a version's stored options: the keys set, the format's defaults for the rest


@dataclass(frozen=True)
class OptionVersion:
    since: date | None  # None: from the league's beginning
    options: Options


def versions(current: Options, history: Sequence[Mapping[str, Any]]) -> list[OptionVersion]:
    """The stored shape (`League.options`, `League.option_history`) as versions, oldest first."""
    starts: list[date | None] = [None, *(date.fromisoformat(entry["until"]) for entry in history)]
    options = [*(entry["options"] for entry in history), current]
    return [OptionVersion(since, dict(values)) for since, values in zip(starts, options, strict=True)]


def stored(versions_: Sequence[OptionVersion]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Versions back in the stored shape: the newest options, and each earlier version with its end date."""
    history = [
        {"until": later.since.isoformat(), "options": dict(earlier.options)}
        for earlier, later in pairwise(versions_)
        if later.since is not None
    ]
    return dict(versions_[-1].options), history


def in_effect(versions_: Sequence[OptionVersion], day: date) -> Options:
    """The options a week played on `day` is scored under."""
    chosen = versions_[0].options
    for version in versions_:
        if version.since is None or version.since <= day:
            chosen = version.options
    return chosen


def changed(
    versions_: Sequence[OptionVersion], since: date | None, change: Callable[[Options], Options]
) -> list[OptionVersion]:
    """The versions with `change` applied from `since` on: a version running across `since` is split there, every
    version from then on changed, and neighbours left equal merged, so history shows only real changes."""
    result: list[OptionVersion] = []
    for index, version in enumerate(versions_):
        ends = versions_[index + 1].since if index + 1 < len(versions_) else None
        starts_before = since is not None and (version.since is None or version.since < since)
        if not starts_before:
            result.append(OptionVersion(version.since, change(version.options)))
        elif ends is not None and since is not None and ends <= since:
            result.append(version)
        else:
            result += [version, OptionVersion(since, change(version.options))]
    merged: list[OptionVersion] = []
    for version in result:
        if merged and merged[-1].options == version.options:
            continue
        merged.append(version)
    return merged


@dataclass(frozen=True)
class ValueSpan:
    value: Any
    since: date | None
    until: date | None  # exclusive; None: still in effect


def key_history(versions_: Sequence[OptionVersion], read: Callable[[Options], Any]) -> list[ValueSpan]:
    """One option's value over time (`read` gives its effective value in a version), equal spans joined."""
    spans: list[ValueSpan] = []
    for version in versions_:
        value = read(version.options)
        if spans and spans[-1].value == value:
            continue
        if spans:
            spans[-1] = ValueSpan(spans[-1].value, spans[-1].since, version.since)
        spans.append(ValueSpan(value, version.since, None))
    return spans


def describe(name: str, spans: Sequence[ValueSpan], show: Callable[[Any], str]) -> str:
    """ "allow_shorthand: no until 2026-03-10, yes since" (a single span: "allow_shorthand: no")."""
    if len(spans) == 1:
        return f"{name}: {show(spans[0].value)}"
    parts = []
    for span in spans:
        if span.until is None:
            parts.append(f"{show(span.value)} since {span.since}")
        elif span.since is None:
            parts.append(f"{show(span.value)} until {span.until}")
        else:
            parts.append(f"{show(span.value)} from {span.since} until {span.until}")
    return f"{name}: {', '.join(parts)}"
