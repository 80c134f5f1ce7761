"""Goal points, the end and the winners: shared by the full engine (:class:`Game`) and
the scorekeeper's tracker (:class:`ObservedGame`), which both hold the tokens won.

    >>> import random
    >>> from table.passe_eclair import random_playout
    >>> game = random_playout(random.Random(1), 3)      # a whole random 9-round game
    >>> game.victory_tokens, game.consolation_tokens
    ([[2], [3, 1, 1, 1], [2, 2, 3, 3]], [['goal-1', 'leon', 'marlon'], [], ['goal-1']])
    >>> game.goal_points()      # per seat: victory plus consolation tokens
    [3, 6, 11]
    >>> game.winners()
    [2]
"""

from __future__ import annotations

from .profile import token_points


class GoalCount:
    """For a game object with ``victory_tokens`` (points per seat), ``consolation_tokens``
    (token ids per seat) and ``phase``."""

    def goal_points(self) -> list[int]:
        return [sum(v) + sum(token_points(c) for c in cons)
                for v, cons in zip(self.victory_tokens, self.consolation_tokens)]

    def is_over(self) -> bool:
        return self.phase == "game_over"

    def winners(self) -> list[int]:
        """The seats with most goal points once the game is over (ties shared), else []."""
        if not self.is_over():
            return []
        points = self.goal_points()
        return [seat for seat, p in enumerate(points) if p == max(points)]
