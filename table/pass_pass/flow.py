"""How a Pass Pass game's state changes once an action is known to be legal.

:class:`~table.pass_pass.game.Game` checks every action first, then calls one of these
functions, which change the :class:`~table.pass_pass.state.GameState` and append the
events they cause. They never refuse anything: refusing is the game's job.

    >>> from table.pass_pass import new_game
    >>> state, events = GameState.from_dict(new_game(3, seed=2).to_dict()), []
    >>> play(state, 0, state.hands[0][0], events)
    >>> events[0]["type"], len(state.hands[0]), state.phase
    ('card_played', 7, 'play')
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from table.pass_pass.cards import Card, card_sort_key
from table.pass_pass.scoring import RoundScore, best_by_points
from table.pass_pass.state import GameState, TrickSummary
from table.pass_pass.teams import team_count, team_of
from table.pass_pass.trick import analyse_trick, pass_pass_count, round_points, second_take_options

HAND_SIZE = 8
TRICKS_PER_ROUND = 8
ROUNDS = 3
PASS_PASS_TO_WIN = 3

Events = list[dict[str, Any]]


def deal(s: GameState) -> None:
    """Shuffle all 48 cards with the game's RNG and deal 8 each, one by one; the rest is
    set aside. Observed mode deals nothing (the hands are unknown)."""
    if s.observed:
        return
    cards = s.deck.cards()
    s.rng.shuffle(cards)
    dealt = cards[: HAND_SIZE * s.players]
    s.hands = [dealt[seat:: s.players] for seat in range(s.players)]
    s.set_aside = cards[HAND_SIZE * s.players:]


def play(s: GameState, seat: int, card: Card, events: Events) -> None:
    if s.hands is not None:
        s.hands[seat].remove(card)
    s.plays.append((seat, card))
    s.table.append(card)
    events.append({"type": "card_played", "round": s.round, "trick": s.trick, "seat": seat,
                   "card": card.id, "colour": card.color, "value": card.value, "diamonds": card.diamonds})
    if len(s.plays) < s.players:
        return
    result = analyse_trick(s.plays)
    s.last_trick = TrickSummary(s.round, s.trick, s.leader, tuple(s.plays), result.majority,
                                result.ranking, result.first, result.second)
    s.phase = "first_take"
    events.append({"type": "trick_resolved", "round": s.round, "trick": s.trick,
                   "majority": result.majority, "ranking": list(result.ranking),
                   "first": result.first, "second": result.second,
                   "first_card": result.first_card.id, "second_card": result.second_card.id})


def take_first(s: GameState, seat: int, card: Card, events: Events) -> None:
    """The first winner takes ``card``; then the second winner's take, if forced."""
    s.table.remove(card)
    s.in_front[seat].append(card)
    s.last_trick = s.last_trick.with_take(seat, (card,))
    events.append({"type": "card_taken", "seat": seat, "winner": "first", "cards": [card.id], "auto": False})
    if mark(s, seat, events):
        return
    options = second_take_options(s.table)
    if len(options) == 1:
        take_second(s, options[0], events, auto=True)
    else:
        s.phase = "second_take"


def take_second(s: GameState, cards: tuple[Card, ...], events: Events, *, auto: bool) -> None:
    """The second winner takes ``cards``; the rest is out; the trick (or round) ends."""
    seat = s.last_trick.second
    for card in cards:
        s.table.remove(card)
    s.in_front[seat].extend(cards)
    out = tuple(sorted(s.table, key=card_sort_key))
    s.out.extend(out)
    s.table.clear()
    s.last_trick = replace(s.last_trick.with_take(seat, cards), out=out, complete=True)
    events.append({"type": "card_taken", "seat": seat, "winner": "second",
                   "cards": [c.id for c in cards], "auto": auto})
    if out:
        events.append({"type": "cards_out", "cards": [c.id for c in out]})
    if mark(s, seat, events):
        return
    s.leader = seat  # the second winner leads the next trick, or the next round
    s.plays.clear()
    if s.trick < TRICKS_PER_ROUND:
        s.trick += 1
        s.phase = "play"
    else:
        end_round(s, events)


def mark(s: GameState, seat: int, events: Events) -> bool:
    """Tick the seat's new Pass Pass, if any; True if that wins the game."""
    count = pass_pass_count(s.in_front[seat])
    if count <= s.marks[seat][-1]:
        return False
    s.marks[seat][-1] = count
    event = {"type": "pass_pass", "seat": seat, "count": count, "total": sum(s.marks[seat])}
    if s.teams:
        team = team_of(seat, s.players)
        # A team's count: this member's ticks this round plus the team's recorded ones.
        event.update(team=team, team_total=count + recorded(s, team, "pass_pass"))
        reached = event["team_total"] >= PASS_PASS_TO_WIN
    else:
        reached = event["total"] >= PASS_PASS_TO_WIN
    events.append(event)
    if reached:
        winner = event["team"] if s.teams else seat
        s.phase, s.winners, s.won_by = "over", [winner], "pass_pass"
        points, pass_pass = totals(s)
        events.append({"type": "instant_win", "seat": seat, "team": event.get("team"),
                       "total": event["team_total"] if s.teams else event["total"]})
        events.append({"type": "game_over", "winners": [winner], "teams": s.teams, "by": "pass_pass",
                       "points": list(points.values()), "pass_pass": list(pass_pass.values())})
    return reached


def recorded(s: GameState, team: int, what: str) -> int:
    """A team's recorded ``"points"`` or ``"pass_pass"`` over the finished rounds."""
    values = [line.team_points(team) if what == "points" else line.team_pass_pass(team) for line in s.sheet]
    return sum(n for n in values if n is not None)


def totals(s: GameState) -> tuple[dict[int, int], dict[int, int]]:
    """(points, Pass Pass) so far: per seat, or per team from the recorded scores. Points
    come from finished rounds; individual Pass Pass include the current round's ticks."""
    if s.teams:
        teams = range(team_count(s.players))
        return ({t: recorded(s, t, "points") for t in teams}, {t: recorded(s, t, "pass_pass") for t in teams})
    points = {seat: sum(line.points[seat] for line in s.sheet) for seat in range(s.players)}
    return points, {seat: sum(m) for seat, m in enumerate(s.marks)}


def end_round(s: GameState, events: Events) -> None:
    points = tuple(round_points(cards) for cards in s.in_front)
    pass_pass = tuple(m[-1] for m in s.marks)
    chosen = (None,) * team_count(s.players) if s.teams else None
    s.sheet.append(RoundScore(s.round, points, pass_pass, chosen))
    events.append({"type": "round_over", "round": s.round, "points": list(points), "pass_pass": list(pass_pass)})
    if s.teams:
        s.phase = "record"  # each team now chooses whose score it records
    else:
        next_round_or_finish(s, events)


def record(s: GameState, team: int, seat: int, events: Events) -> None:
    line = s.sheet[-1]
    chosen = list(line.recorded)
    chosen[team] = seat
    s.sheet[-1] = replace(line, recorded=tuple(chosen))
    events.append({"type": "member_recorded", "round": line.round, "team": team, "seat": seat,
                   "points": line.points[seat], "pass_pass": line.pass_pass[seat]})
    if None not in chosen:
        next_round_or_finish(s, events)


def next_round_or_finish(s: GameState, events: Events) -> None:
    if s.round == ROUNDS:
        # Nobody leads again: s.leader keeps the last second winner.
        points, pass_pass = totals(s)
        s.phase, s.winners, s.won_by = "over", best_by_points(points, pass_pass), "points"
        events.append({"type": "game_over", "winners": list(s.winners), "teams": s.teams, "by": "points",
                       "points": list(points.values()), "pass_pass": list(pass_pass.values())})
        return
    s.round += 1
    s.trick = 1
    s.phase = "play"
    s.in_front = [[] for _ in range(s.players)]
    s.out = []
    for marks in s.marks:
        marks.append(0)
    deal(s)  # all 48 cards are reshuffled each round
    events.append({"type": "round_started", "round": s.round, "leader": s.leader})
