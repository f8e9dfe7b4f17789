"""Seats: who is still in the round, turn order, neighbours, teams and partners.

What the effect language's player expressions read (`next`, `partner`, `players from`...).
"""

from __future__ import annotations

from . import playable

# Comprehensions over a method's locals live in these helpers: in the method itself (CPython 3.11)
# they would make those locals cells, which every call of the method creates first, needed or not.

def must_call(seats, hands, size: int) -> list[int]:
    """The seats of `seats` left with exactly `size` cards (uno.at: the hand that must call UNO)."""
    return [p for p in seats if len(hands[p]) == size]


def with_cards(seats, hands) -> list[int]:
    """The seats of `seats` that hold cards."""
    return [p for p in seats if hands[p]]


def teams_in_play(team, hands, eliminated) -> int:
    """How many teams (by the team table `team`) have a player in the round: cards and not eliminated."""
    return len({t for t, hand, out in zip(team, hands, eliminated) if hand and not out})


def finished_team(team, hands, eliminated, count: int) -> int:
    """The first team (0 to count - 1) whose players still in the game all hold no cards, or -1.

    Team t's lowest seat is t. A team whose players are all eliminated is not finished.
    """
    for t in range(count):
        members = [q for q, tq in enumerate(team) if tq == t and not eliminated[q]]
        if members and not any(hands[q] for q in members):
            return t
    return -1


def not_eliminated(seats, eliminated) -> tuple[int, ...]:
    """The seats of `seats` still in the game."""
    return tuple([p for p in seats if not eliminated[p]])


class Seats:
    """State's seat queries: each takes seats as indexes, -1 for nobody."""

    __slots__ = ()

    def in_play(self, p: int) -> bool:
        return not self.eliminated[p] and bool(self.hands[p])

    def active_count(self) -> int:
        if all(self.hands) and True not in self.eliminated:
            return self.n                                   # the common case: everyone plays
        return sum(1 for hand, out in zip(self.hands, self.eliminated) if hand and not out)

    def hand_of(self, p: int) -> list[int]:
        return self.hands[p] if p >= 0 else []

    def hand_size(self, p: int) -> int:
        return len(self.hands[p]) if p >= 0 else 0

    def hand_points(self, p: int) -> int:
        return sum(map(self.g.k_points.__getitem__, self.hands[p])) if p >= 0 else 0

    def role_of(self, p: int) -> int:
        """p's role (an index into roles.names), or -1 for nobody."""
        return self.roles[p] if p >= 0 else -1

    def is_out(self, p: int) -> bool:
        return p >= 0 and (self.eliminated[p] or not self.hands[p])

    def next_of(self, p: int) -> int:
        """The next seat after p in the direction of play that is still in the round."""
        if p < 0:
            return -1
        seat = (p + self.direction) % self.n          # not p: there are at least two seats
        if self.hands[seat] and not self.eliminated[seat]:
            return seat                               # the common case: the neighbour plays on
        n, d, hands, eliminated = self.n, self.direction, self.hands, self.eliminated
        for _ in range(n - 1):
            seat = (seat + d) % n
            if seat != p and hands[seat] and not eliminated[seat]:
                return seat
        return -1

    def seat_after(self, p: int) -> int:
        """The seat after p in the direction of play, whether or not its player is still in the round."""
        return (p + self.direction) % self.n if p >= 0 else -1

    def left_of(self, p: int) -> int:
        """The seat to p's left (p + 1) in seating order, whatever the direction and whether or not it plays."""
        return (p + 1) % self.n if p >= 0 else -1

    def right_of(self, p: int) -> int:
        """The seat to p's right (p - 1) in seating order, whatever the direction and whether or not it plays."""
        return (p - 1) % self.n if p >= 0 else -1

    def previous_of(self, p: int) -> int:
        """The player before p in the direction of play who is still in the round (-1: none)."""
        if p < 0:
            return -1
        n, d, hands, eliminated = self.n, self.direction, self.hands, self.eliminated
        seat = p
        for _ in range(n):
            seat = (seat - d) % n
            if seat != p and hands[seat] and not eliminated[seat]:
                return seat
        return -1

    def team_index(self, p: int) -> int:
        return self.g.team_tables[self.n][0][p]

    def same_team(self, a: int, b: int) -> bool:
        team = self.g.team_tables[self.n][0]
        return a >= 0 and b >= 0 and team[a] == team[b]

    def team_members(self, p: int) -> list[int]:
        if p < 0:
            return []
        return [q for q in self.players_from(p, True) if self.same_team(p, q)]

    def partner_of(self, p: int) -> int:
        if p < 0:
            return -1
        partner = self.g.team_tables[self.n][1][p]
        if partner >= 0:                              # teams of two: the other member
            return -1 if self.eliminated[partner] else partner
        for q in self.players_from(p, False):
            if self.same_team(p, q):
                return q
        return -1

    def team_leads(self) -> list[int]:
        size = self.g.variant.team_size
        return list(range(self.n // size)) if size > 1 else list(range(self.n))

    def players_from(self, p: int, include: bool) -> tuple[int, ...]:
        """Seats in turn order starting at p (or after p), not eliminated."""
        if p < 0:
            return ()
        order = self.g.orders[self.n][self.direction][include][p]
        if True in self.eliminated:
            return not_eliminated(order, self.eliminated)
        return order

    def extreme_hand(self, p: int, most: bool) -> int:
        best, best_size = -1, None
        for q in self.players_from(p, True):
            size = len(self.hands[q])
            if best_size is None or (size > best_size if most else size < best_size):
                best, best_size = q, size
        return best

    def holds_playable(self, p: int, judging: bool = False) -> bool:
        """Whether p could play a card now; `judging` (asked inside a strict restriction being judged): whether
        p holds a card that matches, the strict restrictions not judged again (bounded: no recursion)."""
        return p >= 0 and bool(playable.kinds(self, p, None, not judging))
