"""Pass Pass team mode: who plays with whom, and which member a team should record.

Teams are of two, seated alternately (the French original; ruling 1): 4 players make
2 teams, 6 players make 3 teams, and seat ``i`` is in team ``i % T`` with ``T = players // 2``.

    >>> team_count(6), team_of(4, 6), members(1, 6)
    (3, 1, (1, 4))
"""

from __future__ import annotations

from collections.abc import Sequence

from table.pass_pass.cards import InvalidInput

INDIVIDUAL_PLAYERS = (3, 4, 5)
TEAM_PLAYERS = (4, 6)


def check_player_count(players: object, teams: bool) -> int:
    """Return ``players`` if the rule book allows it in that mode, else raise
    :class:`InvalidInput` saying what is allowed."""
    allowed = TEAM_PLAYERS if teams else INDIVIDUAL_PLAYERS
    if isinstance(players, int) and not isinstance(players, bool) and players in allowed:
        return players
    if teams:
        raise InvalidInput(
            f"Pass Pass in teams is played by 4 or 6 players (teams of two), not {players!r}.",
            f"Pass Pass par équipes se joue à 4 ou 6 joueurs (équipes de deux), pas {players!r}.",
            code="bad_players",
        )
    raise InvalidInput(
        f"Pass Pass is played individually by 3, 4 or 5 players, not {players!r} "
        "(4 or 6 may play in teams).",
        f"Pass Pass se joue individuellement à 3, 4 ou 5 joueurs, pas {players!r} "
        "(à 4 ou 6, on peut jouer par équipes).",
        code="bad_players",
    )


def team_count(players: int) -> int:
    return players // 2


def team_of(seat: int, players: int) -> int:
    return seat % team_count(players)


def members(team: int, players: int) -> tuple[int, ...]:
    """The seats of ``team``, lower seat first."""
    return tuple(range(team, players, team_count(players)))


def suggest_member(team: int, players: int, points: Sequence[int], pass_pass: Sequence[int]) -> int:
    """The member to suggest recording: more points, then more Pass Pass; on a full tie
    the lower seat (either is as good for the team)."""
    return max(members(team, players), key=lambda seat: (points[seat], pass_pass[seat], -seat))
