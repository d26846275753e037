"""The rating itself: openskill's Plackett–Luce model over ordered machine games.

Every machine game, whatever the format, is one ordered result: the players who played that machine in that game,
from the highest score to the lowest, tied scores sharing a place. Each player rates alone, even in a team's
doubles game: each of the four plays their own ball on the machine and has their own score, and a
four-way order says more about each player's skill than the two sides' totals, which mix in a partner's.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from openskill.models import PlackettLuce, PlackettLuceRating

Player = TypeVar("Player", bound=Hashable)

PROVISIONAL_SIGMA = 6.0  # above this (the prior is 8.33; about 15 four-player games) a rating is provisional


@dataclass(frozen=True)
class RatingSettings:
    """openskill's parameters, at openskill's own defaults: on UKPL seasons 1–9, other betas and taus moved the
    figures by less than 0.001 (docs/ratings.md)."""

    mu: float = 25.0
    sigma: float = 25.0 / 3
    beta: float = 25.0 / 6
    tau: float = 25.0 / 300


DEFAULT_SETTINGS = RatingSettings()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def predictive(self) -> float:
        """Who is expected to finish higher: mean skill less one sigma, which predicted UKPL seasons 1–9 a little
        better than the mean alone (docs/ratings.md)."""
        return self.mu - self.sigma

    @property
    def conservative(self) -> float:
        """What tables sort by: the skill the player has with high confidence (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Game(Generic[Player]):
    """One machine game: its players in finishing order, each place a tuple of the players who tied there."""

    places: tuple[tuple[Player, ...], ...]

    @classmethod
    def from_scores(cls, scores: Mapping[Player, int]) -> Game[Player]:
        by_score: dict[int, list[Player]] = {}
        for player, score in scores.items():
            by_score.setdefault(score, []).append(player)
        return cls(tuple(tuple(by_score[score]) for score in sorted(by_score, reverse=True)))

    def players(self) -> list[Player]:
        return [player for place in self.places for player in place]


class RatingBook(Generic[Player]):
    """Every player's rating so far; `play` updates it with one game (the players' order in it)."""

    def __init__(self, settings: RatingSettings = DEFAULT_SETTINGS) -> None:
        self._settings = settings
        self._model = PlackettLuce(mu=settings.mu, sigma=settings.sigma, beta=settings.beta, tau=settings.tau)
        self._ratings: dict[Player, PlackettLuceRating] = {}
        self._games: dict[Player, int] = {}

    def play(self, game: Game[Player]) -> None:
        players = game.players()
        if len(players) < 2:
            return  # a game with one player orders nobody
        ranks = [float(place) for place, tied in enumerate(game.places) for _ in tied]
        teams = [[self._ratings.get(p) or self._model.rating()] for p in players]
        for player, (rated,) in zip(players, self._model.rate(teams, ranks=ranks), strict=True):
            self._ratings[player] = rated
            self._games[player] = self._games.get(player, 0) + 1

    def copy(self) -> RatingBook[Player]:
        """A book that plays on from here while this one stays as it is (openskill returns new ratings)."""
        twin: RatingBook[Player] = RatingBook(self._settings)
        twin._ratings, twin._games = dict(self._ratings), dict(self._games)
        return twin

    def play_all(self, games: Iterable[Game[Player]]) -> None:
        for game in games:
            self.play(game)

    def rating(self, player: Player) -> Rating:
        rated = self._ratings.get(player)
        if rated is None:
            return Rating(self._settings.mu, self._settings.sigma, 0)
        return Rating(rated.mu, rated.sigma, self._games[player])

    def ratings(self) -> dict[Player, Rating]:
        return {player: self.rating(player) for player in self._ratings}

    def ranked(self, players: Sequence[Player]) -> list[Player]:
        """The players from the strongest expected to the weakest."""
        return sorted(players, key=lambda p: -self.rating(p).predictive)
