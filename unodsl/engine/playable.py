"""What may be played or answered now: functions over the State, imported by the modules that ask.

A turn's plays (the variant's matching, a color lock, strict restrictions judged as at play time), the
plays on each playable pile, and the answers to a draw stack (stacking cards, and cards whose on_stack
effect turns the stack away). Nothing here changes the game: `kinds_on` names the pile in play while it
judges (`top` and `current` read it) and puts it back.

The State keeps two of these questions as methods, `is_playable` and `holds_playable`, because the fast
mode specialises them (engine/fast.py) and compiled code asks for the latter by name (effects/contract.py);
their general bodies call `kinds` here.
"""

from __future__ import annotations

from ..effects import layout as D


def kinds(st, p: int, among=None, judge: bool = True) -> list[int]:
    """The distinct kinds in `among` (default p's hand) that p may play now (on any playable pile); with
    judge=False, those that match, their strict restrictions not judged (`holds playable` inside a strict
    restriction)."""
    g = st.g
    if g.play_piles:
        found = set(kinds_on(st, p, -1, among, judge))
        for pile in g.play_piles:
            found.update(kinds_on(st, p, pile, among, judge))
        return sorted(found)
    return _here(st, p, st.discard, st.color, among, judge)


def kinds_on(st, p: int, pile: int, among=None, judge: bool = True) -> list[int]:
    """As `kinds`, on one pile (-1 the discard pile, else a playable declared pile): judged with it as the
    pile in play, whose top card and color `top` and `current` read."""
    was = st.on_pile
    st.on_pile = pile
    try:
        if pile < 0:
            return _here(st, p, st.discard, st.color, among, judge)
        return _here(st, p, st.piles[pile], st.pile_colors[pile], among, judge)
    finally:
        st.on_pile = was


def pile_in_play(st) -> list[int]:
    """The cards of the pile in play (the last played on), its top card last."""
    return st.discard if st.on_pile < 0 else st.piles[st.on_pile]


def _here(st, p: int, pile: list, color: int, among, judge: bool) -> list[int]:
    g = st.g
    hand = st.hands[p] if among is None else among
    if st.lock_owner >= 0 and p != st.lock_owner:
        c = st.lock_color
        k_color, k_wild = g.k_color, g.k_wild
        allow_wild = g.rules.lock_allows_wild
        # Only the locked color; a wild only where the variant lets wilds through the lock.
        found = {k for k in hand if (k_color[k] == c and not k_wild[k]) or (allow_wild and k_wild[k])}
    else:
        ok = g.playable_after[color + 1][pile[-1]] if pile else None
        found = set(hand) if ok is None else set(hand) & ok
    if judge and g.strict_kinds and found & g.strict_kinds:
        for k in list(found & g.strict_kinds):
            if not judge_strict(st, p, k):
                found.discard(k)
    return sorted(found)


def judge_strict(st, p: int, k: int) -> bool:
    """Whether k's strict restriction lets p play it (k held by p, of a kind with one): judged as if k had
    left p's hand, as at play time."""
    held = st.hands[p]
    at = held.index(k)
    del held[at]
    try:
        return bool(st.g.restriction[st.g.k_type[k]](st, [D.JUDGING, 0, p, k, True, False]))
    finally:
        held.insert(at, k)


def stack_answers(st, p: int) -> list[int]:
    """The distinct kinds in p's hand that may answer the draw penalty (stacking on): answers to the stack's
    card, the last that added to it, whatever was played on it since (a card that turned the stack away);
    with no stack open, to the top card of the pile in play."""
    top = st.stack_card
    if top < 0:
        pile = pile_in_play(st)
        if not pile:                              # no start card and no play yet: nothing to answer
            return []
        top = pile[-1]
    return sorted(st.g.stack_answers[top].intersection(st.hands[p]))


def deflects(st, p: int, k: int) -> bool:
    """Whether p's card k answers the pending stack by its on_stack effect: its on_stack_if holds and it
    matches as it would on a turn (the variant's own matching, the top card and the current color)."""
    g = st.g
    test = g.on_stack_if[g.k_type[k]]
    return (k in g.deflectors and (test is None or bool(test(st, [-1, 0, p, k, True, False])))
            and st.is_playable(p, k))


def with_deflectors(st, p: int, answers: list[int]) -> list[int]:
    """The sorted stack answers of p with the cards that may turn the stack away (Game.deflectors) added."""
    extra = [k for k in st.g.deflectors.intersection(st.hands[p]) if k not in answers and deflects(st, p, k)]
    return sorted(answers + extra) if extra else answers
