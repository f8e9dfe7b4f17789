"""The instruction set: one function per op the effect compiler emits a call of, `op(state, *values)`.

Each op declares, where it is defined, what it may do besides setting the state's fields
(`@instruction(DRAWS)`, the flags of effects.layout); the compile step reads those flags to choose the
fast paths. An op that pauses sets `state.pending` and returns D.PAUSE.
An eliminated player holds no cards and decides nothing: ops that would hand them cards or a
decision do nothing for them (docs/language.md, "Eliminated players").
"""

from __future__ import annotations

from ..effects import layout as D
# The flags an instruction declares: defined where compiled code and the engine meet (the lowering
# computes what code may do from them), so the effects package needs nothing from the engine.
from ..effects.layout import DRAWS, F_SELF, PAUSES, PUSHES, RESHAPES
from ..model.variables import VarType, Visibility
from ..model.variant import EliminatedCards
from . import events as E
from . import playable
from .seats import not_eliminated
from .variables import shown_value

# name -> function, and name -> what it may do: what the engine hands the compiler (compile_effects).
OPS: dict = {}
OP_FLAGS: dict[str, frozenset] = {}


def instruction(*flags: str):
    """Register the decorated function as the op of its name, declaring what it may do (`flags`)."""
    def register(fn):
        OPS[fn.__name__] = fn
        OP_FLAGS[fn.__name__] = frozenset(flags)
        return fn
    return register


@instruction(DRAWS)
def draw(st, p: int, n: int) -> None:
    """p draws n cards (never more than the deck holds); then the after-draw event, if the variant has one.

    With round.eliminate_when the cards come one at a time, the rule tested after each (draw_until), unless
    the hand stays below the smallest size for which it may hold (Game.eliminate_from): the same cards come
    at once, and the rule is tested as draw_until does at its end.
    """
    if p >= 0 and n > 0 and not st.eliminated[p]:
        g = st.g
        watch = g.eliminate_when is not None
        if watch and len(st.hands[p]) + n >= g.eliminate_from:
            draw_until(st, p, _count_down, [n])
            return
        got = st.draw_cards(p, n if n <= g.deck_size else g.deck_size)
        st.steps += got
        if st.events is not None and got:
            st.events.append(E.drew(st, p, got))
        if watch:                               # as draw_until ends: no card, no event
            if not got:
                return
            st.eliminate_by_rule()
            if st.eliminated[p]:
                return
        if g.after_draw >= 0:                   # after_draw_event, without the call when there is none
            st.after_draw_event(p)


@instruction(DRAWS)
def draw_to(st, p: int, n: int) -> None:
    """p draws until holding n cards."""
    if p >= 0:
        draw(st, p, n - len(st.hands[p]))


@instruction(DRAWS)
def draw_until_playable(st, p: int) -> None:
    """p draws until a card they may play comes, or both piles are empty."""
    draw_until(st, p, _playable_by, p)


def _playable_by(st, p: int, k: int) -> bool:
    return st.is_playable(p, k)


_playable_by.sought = lambda st, p: ("playable", None)     # what the drew event says was looked for


def _count_down(st, left: list, k: int) -> bool:
    """The `meets` of a draw of a number of cards: true at the last one (`left` holds how many are still due)."""
    left[0] -= 1
    return left[0] <= 0


@instruction(DRAWS)
def draw_until(st, p: int, meets, arg) -> None:
    """p draws until a card k meets the condition, `meets(st, arg, k)`, or both piles are empty; p keeps
    every card drawn (`P draws until COND` passes its frame as `arg`).

    round.eliminate_when is tested after every card (docs/language.md 9.13): a player it knocks
    out is out at once, and one who is knocked out draws no more and has no after-draw event.
    """
    if p < 0 or st.eliminated[p]:
        return
    got = 0
    watch = st.g.eliminate_when is not None
    # A hand below Game.eliminate_from is not tested (a size for which the rule cannot hold); with none, never.
    at = st.g.eliminate_from if watch else st.g.deck_size + 1
    hand = st.hands[p]
    for _ in range(st.g.deck_size):
        k = st.draw_one()
        if k < 0:
            break
        hand.append(k)
        st.steps += 1
        got += 1
        if meets(st, arg, k) or (len(hand) >= at and st.knocked_out(p)):
            break
    if got:
        if st.events is not None:
            st.events.append(E.drew(st, p, got, meets, arg))
        st.uno_called[p] = False
        if watch:
            st.eliminate_by_rule()
            if st.eliminated[p]:
                return
        st.after_draw_event(p)


@instruction(DRAWS)
def penalty(st, p: int, n: int) -> None:
    """Draw n and lose the turn, or, with stacking, pass the growing stack on.

    With no card to draw and no stack pending there is nothing to stack: the penalty is a skip. A count
    below 0 counts as 0, as in `P draws N`: a stack never shrinks, never goes below 0.
    """
    if p < 0 or st.eliminated[p]:
        return
    if n < 0:
        n = 0
    if st.g.stacking and (n > 0 or st.stack):
        pile = playable.pile_in_play(st)               # the pile played on: the discard pile or a playable one
        if n > 0 and pile:
            st.stack_card = pile[-1]            # a card that adds to the stack is what the next answers
        if playable.stack_answers(st, p) or (st.g.deflectors and playable.with_deflectors(st, p, [])):
            st.stack += n
            st.stack_victim = p
            st.next_exact = p
            if st.events is not None:
                st.events.append(E.Event(E.STACK_GREW, p, count=st.stack))
            return
    total = n + st.stack
    st.stack = 0
    st.stack_victim = -1
    st.stack_card = -1
    draw(st, p, total)
    st.skip[p] += 1


@instruction()
def skip(st, p: int) -> None:
    """p loses their next turn (skips add up)."""
    if p >= 0:
        if st.g.skip_kinds is None:
            st.skip[p] += 1
        else:
            skip_pending(st, p)


def skip_pending(st, q: int) -> None:
    """stacking.skips: q is skipped once. q holding a card that answers a skip faces it on the next turn (the
    skip is pending against q, and q plays next); else q loses the turns at once (skips add up: a skip flag,
    then `lost_turns`). A skip made by a card that answered one passes it on: with `counted`, adding the turns
    pending to its own."""
    if st.skip_victim == q:                     # q faces it already (one effect skipping q twice): one more turn
        st.skip_stack += 1
        if st.events is not None:
            st.events.append(E.Event(E.SKIP_STACKED, q, count=st.skip_stack))
        return
    turns = 1
    if st.skip_stack:
        if st.skip_victim >= 0:                 # pending against another: this skip is not theirs to pass on
            lose_turns(st, q, 1)
            return
        if st.g.variant.skips_counted:          # carried by the card that answered it (Moves._apply_stack)
            turns += st.skip_stack
    if not st.eliminated[q] and st.hands[q] and not st.g.skip_kinds.isdisjoint(st.hands[q]):
        st.skip_stack = turns
        st.skip_victim = q
        st.next_exact = q
        if st.events is not None:
            st.events.append(E.Event(E.SKIP_STACKED, q, count=turns))
        return
    st.skip_stack = 0
    st.skip_victim = -1
    lose_turns(st, q, turns)


def lose_turns(st, q: int, turns: int) -> None:
    """q loses `turns` more turns (stacking.skips: skips add up), counted in `lost_turns`; q's skip flag stays up
    while some are left (Flow.advance passes q over once for each, and raises it again)."""
    if turns > 0:
        st.lost_turns[q] += turns
        st.skip[q] = 1


@instruction()
def skip_next(st, p: int, n: int) -> None:
    """Skip the next n players after p, never the same player twice and never p."""
    seat = p
    if all(st.hands) and True not in st.eliminated:      # active_count's common case, without the call
        active = st.n
    else:
        active = st.active_count()
    for _ in range(n if n < active else active - 1):
        seat = st.next_of(seat)
        if seat < 0 or seat == p:
            break
        if st.g.skip_kinds is None:
            st.skip[seat] += 1
        else:
            skip_pending(st, seat)


@instruction()
def reverse(st) -> None:
    """The direction of play turns around."""
    st.direction = -st.direction
    if st.events is not None:
        st.events.append(E.Event(E.REVERSED, count=st.direction))


@instruction(PAUSES)
def choose_color(st, p: int) -> int:
    """p names the color in play: a decision."""
    if p < 0 or st.eliminated[p]:
        return 0
    st.pending = (D.COLOR, p)
    return D.PAUSE


@instruction(PAUSES)
def choose_color_value(st, fr: list, slot: int, p: int) -> int:
    """p chooses a color into frame slot `slot`, the color in play unchanged (`let NAME = P chooses color`): a
    decision. No p (-1), an eliminated one, or a variant without colors: no color (-1) is chosen."""
    if p < 0 or st.eliminated[p] or not st.g.variant.colors:
        fr[slot] = -1
        return 0
    st.pending = (D.COLOR, p, slot)
    return D.PAUSE


@instruction()
def set_color(st, c: int) -> None:
    """c becomes the color in play on the pile in play (-1, no color: nothing changes)."""
    if c >= 0:
        if st.on_pile < 0:
            st.color = c
        else:
            st.pile_colors[st.on_pile] = c
        if st.events is not None:
            st.events.append(E.Event(E.COLOR, color=st.g.variant.colors[c]))


@instruction()
def clear_color(st) -> None:
    """No color is in play any more on the pile in play: any card may be played there until one is named."""
    if st.on_pile >= 0:
        if st.pile_colors[st.on_pile] >= 0:
            st.pile_colors[st.on_pile] = -1
            if st.events is not None:
                st.events.append(E.Event(E.COLOR))
    elif st.color >= 0:
        st.color = -1
        if st.events is not None:
            st.events.append(E.Event(E.COLOR))


@instruction(PAUSES)
def choose_player(st, fr: list, slot: int, chooser: int, group: list[int]) -> int:
    """`chooser` (the effect's owner, or any player) chooses a player of `group` still in the game (into frame
    slot `slot`): a decision, but for a lone candidate. No chooser (-1) or an eliminated one chooses nobody."""
    eliminated = st.eliminated
    if chooser < 0 or eliminated[chooser]:
        fr[slot] = -1                   # nobody to choose, or an eliminated player: nobody is chosen
        return 0
    if True in eliminated:
        candidates = not_eliminated(group, eliminated)
    else:
        candidates = group              # nobody is eliminated: every seat of the group may be chosen
    if not candidates:
        fr[slot] = -1
        return 0
    if len(candidates) == 1:
        fr[slot] = candidates[0]
        return 0
    st.pending = (D.TARGET, chooser, slot, tuple(sorted(candidates)))
    return D.PAUSE


@instruction(PAUSES)
def choose_secretly(st, fr: list, pc: int, queue: int, offered: int, picks: int, answer: int, result: int) -> int:
    """A sealed choice: each member of the frame's list `queue` in turn secretly chooses a player of `offered`
    other than themselves (a TARGET decision whose answer comes into slot `answer`; a lone candidate is
    taken without asking, none is no choice); then every choice is shown at once (one event) and slot `result`
    holds the players chosen most, in turn order from the effect's owner. Paused, the effect resumes here."""
    waiting, chosen = fr[queue], fr[picks]
    eliminated = st.eliminated
    if fr[answer] is not None:                  # the answer of the member asked: theirs, secretly
        chosen[waiting.pop(0)] = fr[answer]
        fr[answer] = None
    while waiting:
        c = waiting[0]
        candidates = [] if eliminated[c] else [q for q in fr[offered] if q != c and not eliminated[q]]
        if len(candidates) > 1:
            fr[D.F_PC] = pc
            st.pending = (D.TARGET, c, answer, tuple(sorted(candidates)))
            return D.PAUSE
        if candidates:
            chosen[c] = candidates[0]
        waiting.pop(0)
    tally = [0] * st.n
    for q in chosen:
        if q >= 0:
            tally[q] += 1
    most = max(tally)
    owner = fr[F_SELF]
    order = range(st.n) if owner < 0 else ((owner + i * st.direction) % st.n for i in range(st.n))
    fr[result] = [q for q in order if most and tally[q] == most]
    fr[queue] = fr[offered] = fr[picks] = None          # a loop's next pass begins the statement again
    if st.events is not None:
        st.events.append(E.Event(E.CHOICES_SHOWN, owner, value=tuple(chosen)))
    return pc + 1


def _numbers(st, low: int, high: int) -> tuple[int, int]:
    """The numbers a number choice offers: low..high held to 0..Game.number_top (the variant's `number N`
    actions); an empty range is its lower bound alone."""
    top = st.g.number_top
    low = 0 if low < 0 else top if low > top else low
    high = top if high > top else high
    return low, (low if high < low else high)


@instruction(PAUSES)
def choose_number(st, fr: list, slot: int, chooser: int, low: int, high: int) -> int:
    """`chooser` chooses a whole number from `low` to `high` (into frame slot `slot`): a NUMBER decision, but for
    a lone number (taken without asking). No chooser (-1) or an eliminated one takes the lowest number offered."""
    low, high = _numbers(st, low, high)
    if chooser < 0 or st.eliminated[chooser] or low == high:
        fr[slot] = low
        return 0
    st.pending = (D.NUMBER, chooser, slot, low, high)
    return D.PAUSE


@instruction(PAUSES)
def choose_number_secretly(st, fr: list, pc: int, queue: int, var: int) -> int:
    """A sealed number choice: each member of the frame's list `queue` in turn secretly chooses a number from
    the local after it to the next (a NUMBER decision whose answer comes into the local after the picks; a lone
    number is taken without asking, an eliminated member chooses none); then every number is shown at once
    (one event) and goes into its member's value of the per-player variable `var`. Paused, the effect resumes
    here. The locals, in order from `queue`: the members, low, high, the picks, the answer (layout.BIDS)."""
    answer = queue + 4
    if fr[queue + 3] is None:                   # the statement begins: its range held to the numbers offered
        fr[queue + 1], fr[queue + 2] = _numbers(st, fr[queue + 1], fr[queue + 2])
        fr[queue + 3], fr[answer] = [-1] * st.n, None
    waiting, low, high, chosen = fr[queue], fr[queue + 1], fr[queue + 2], fr[queue + 3]
    eliminated = st.eliminated
    if fr[answer] is not None:                  # the answer of the member asked: theirs, secretly
        chosen[waiting.pop(0)] = fr[answer]
        fr[answer] = None
    while waiting:
        c = waiting[0]
        if not eliminated[c]:
            if low < high:
                fr[D.F_PC] = pc
                st.pending = (D.NUMBER, c, answer, low, high)
                return D.PAUSE
            chosen[c] = low
        waiting.pop(0)
    variable = st.g.player_vars[var]
    for q, n in enumerate(chosen):
        if n >= 0:
            st.pvars[q][var] = variable.clamp(n)
    fr[queue] = fr[queue + 1] = fr[queue + 2] = fr[queue + 3] = None    # a loop's next pass begins it again
    if st.events is not None:
        st.events.append(E.Event(E.NUMBERS_SHOWN, fr[F_SELF], name=variable.name, value=tuple(chosen)))
    return pc + 1


@instruction(RESHAPES)
def swap_hands(st, a: int, b: int) -> None:
    """a and b swap hands."""
    if a >= 0 and b >= 0 and a != b and not st.eliminated[a] and not st.eliminated[b]:
        st.hands[a], st.hands[b] = st.hands[b], st.hands[a]
        st.hand_changed(a)
        st.hand_changed(b)
        if st.events is not None:
            st.events.append(E.Event(E.SWAPPED, a, b))
        st.cards_moved()


@instruction(RESHAPES)
def rotate_hands(st, step: int) -> None:
    """Every hand passes to the next player still in the game `step` seats on (1: to the left, -1: to the right)."""
    seats = [q for q in range(st.n) if not st.eliminated[q]]
    old = [st.hands[q] for q in seats]
    for i, hand in enumerate(old):
        st.hands[seats[(i + step) % len(seats)]] = hand
    st.steps += len(seats)
    for q in seats:
        st.hand_changed(q)
    if st.events is not None:
        st.events.append(E.Event(E.ROTATED, count=step))
    st.cards_moved()


@instruction(PAUSES)
def give(st, giver: int, n: int, taker: int) -> int:
    """giver picks n of their cards for taker, one decision per card."""
    if giver < 0 or taker < 0 or giver == taker or st.eliminated[taker]:
        return 0
    n = min(n, len(st.hands[giver]))
    if n <= 0:
        return 0
    st.pending = (D.GIVE, giver, n, taker)
    return D.PAUSE


@instruction(PAUSES)
def exchange_pick(st, p: int, other: int, n: int, slot: int) -> int:
    """p picks n of their cards blind into limbo[slot], for the exchange with other that exchange_finish completes."""
    if p < 0 or other < 0 or p == other or st.eliminated[p] or st.eliminated[other]:
        return 0
    n = min(n, len(st.hands[p]))
    if n <= 0:
        return 0
    st.pending = (D.GIVE, p, n, -1 - slot)
    return D.PAUSE


@instruction(RESHAPES)
def exchange_finish(st, a: int, b: int) -> None:
    """The picked cards cross: a's go to b and b's to a (both seats read once, before the picks)."""
    first, second = st.limbo
    st.limbo = [[], []]
    if not first and not second:
        return                                    # nothing crossed: no hand changed
    st.hands[a].extend(second)
    st.hands[b].extend(first)
    st.hand_changed(a)
    st.hand_changed(b)
    if st.events is not None:
        names = st.g.card_names
        st.events.append(E.Event(E.GAVE, a, b, len(first), tuple([names[k] for k in first])))
        st.events.append(E.Event(E.GAVE, b, a, len(second), tuple([names[k] for k in second])))
    st.cards_moved()


@instruction()
def look(st, viewer: int, target: int) -> None:
    """viewer sees target's hand as it is now."""
    if viewer >= 0 and target >= 0 and viewer != target:
        st.revealed.setdefault(viewer, {})[target] = list(st.hands[target])
        if st.events is not None:
            names = st.g.card_names
            st.events.append(E.Event(E.LOOKED, viewer, target, len(st.hands[target]),
                                     tuple(sorted([names[k] for k in st.hands[target]]))))


@instruction()
def show_hand(st, p: int, viewers) -> None:
    """p's hand, as it is now, is shown to each of `viewers` but p (and those out of the game): it enters
    what they may see (`revealed`, as `look` does), with a SHOWN event each."""
    if p < 0:
        return
    hand = st.hands[p]
    names = st.g.card_names if st.events is not None else None
    for q in viewers:
        if q < 0 or q == p or st.eliminated[q]:
            continue
        st.revealed.setdefault(q, {})[p] = list(hand)
        if names is not None:
            st.events.append(E.Event(E.SHOWN, p, q, len(hand), tuple(sorted([names[k] for k in hand]))))


@instruction(PAUSES)
def trade(st, p: int, other: int) -> int:
    """p swaps cards one for one with other, seeing their hand, until done or the smaller hand is used up."""
    if p < 0 or other < 0 or p == other or not st.hands[p] or not st.hands[other]:
        return 0
    st.pending = (D.TRADE, p, other, min(len(st.hands[p]), len(st.hands[other])))
    return D.PAUSE


@instruction(RESHAPES)
def discard_color(st, p: int, c: int) -> None:
    """p discards every card of color c, under the top card."""
    if p < 0 or c < 0:
        return
    k_color = st.g.k_color
    keep = [k for k in st.hands[p] if k_color[k] != c]
    gone = [k for k in st.hands[p] if k_color[k] == c]
    st.steps += len(gone)
    st.hands[p] = keep
    if st.discard:
        top = st.discard.pop()
        st.discard.extend(gone)
        st.discard.append(top)
    else:                                       # no start card (start.card: false) and nothing played yet
        st.discard.extend(gone)
    if gone:                                    # a hand without that color is not a new hand
        st.hand_changed(p)
    if st.events is not None and gone:
        names = st.g.card_names
        st.events.append(E.Event(E.DISCARDED, p, count=len(gone), cards=tuple([names[k] for k in gone]),
                                 color=st.g.variant.colors[c]))
    if gone:
        st.cards_moved()


@instruction(RESHAPES)
def redeal(st, p: int, step: int) -> None:
    """Gather every hand, shuffle, and deal them out one at a time from the player after p, going round
    `step` seats at a time (1: to the left, -1: to the right)."""
    if p < 0:
        return
    seats = [q for q in (*st.g.orders[st.n][step][False][p], p) if not st.eliminated[q]]
    pool = [k for q in seats for k in st.hands[q]]
    st.steps += len(pool)
    st.shuffle_cards(pool, len(pool))
    for q in seats:
        st.hands[q] = []
    for i, k in enumerate(pool):
        st.hands[seats[i % len(seats)]].append(k)
    for q in seats:
        st.hand_changed(q)
    if st.events is not None:
        st.events.append(E.Event(E.REDEALT, p, count=step))
    st.cards_moved()


@instruction()
def turn_to(st, p: int) -> None:
    """p plays next, whoever would have."""
    if p >= 0:
        st.next_exact = p
        if st.events is not None:
            st.events.append(E.Event(E.TURN_TO, p))


@instruction(RESHAPES)
def eliminate(st, p: int) -> None:
    """p leaves the game: their cards go where round.eliminated_cards says (under the draw pile by default)."""
    if p < 0 or st.eliminated[p]:
        return
    st.eliminated[p] = True
    if p in st.vulnerable:                      # out of the round: nobody can catch them any more
        st.vulnerable.remove(p)
    hand = st.hands[p]
    st.hands[p] = []
    st.steps += len(hand)
    where = st.g.variant.eliminated_cards
    if where is EliminatedCards.UNDER_DISCARD and st.discard:
        st.discard[0:0] = hand                  # under the whole pile: the top card stays in play
    elif where is EliminatedCards.INTO_DRAW:
        st.draw_pile += hand
        st.shuffle_cards(st.draw_pile)
    else:
        st.put_under_draw_pile(hand)
    if st.events is not None:
        st.events.append(E.Event(E.ELIMINATED, p, count=len(hand)))


@instruction()
def lock(st, c: int, owner: int) -> None:
    """Only color c may be played, by everyone but owner, until play reaches owner."""
    if c >= 0 and owner >= 0:
        st.lock_color, st.lock_owner = c, owner
        if st.events is not None:
            st.events.append(E.Event(E.LOCKED, owner, color=st.g.variant.colors[c]))


@instruction(PAUSES)
def must_play(st, p: int, c: int, else_pc: int, end_pc: int) -> int:
    """p must play a card of color c if they hold one (a decision); else the effect goes on at else_pc."""
    if p < 0:
        return else_pc
    st.turn_from = p
    if st.in_play(p) and c >= 0 and any(st.g.k_color[k] == c for k in st.hands[p]):
        st.pending = (D.FORCED, p, c)
        return D.PAUSE
    return else_pc


@instruction(PAUSES)
def must_play_where(st, fr: list, p: int, keep, else_pc: int, end_pc: int) -> int:
    """p must play a card meeting `keep(st, fr, card)` if they hold one (a FORCED decision whose color is -1: the
    paused effect's filter says which cards, Code.pick_filter); else the effect goes on at else_pc."""
    if p < 0:
        return else_pc
    st.turn_from = p
    hand = st.hands[p]
    st.steps += len(hand)
    if st.in_play(p) and any(keep(st, fr, k) for k in hand):
        st.pending = (D.FORCED, p, -1)
        return D.PAUSE
    return else_pc


@instruction(PAUSES)
def challenge(st, fr: list, victim: int, pc: int, targets: tuple) -> int:
    """victim may challenge the play (not of a card on a stack, unless stacking allows it): a decision;
    the effect goes on at the branch taken (targets: the guilty, innocent and accepted offsets)."""
    guilty, innocent, accepted = targets
    if victim < 0 or st.eliminated[victim] or (st.stack and not st.g.variant.stack_challenge):
        return pc + accepted
    fr[D.F_PC] = pc
    st.pending = (D.CHALLENGE, victim, pc + guilty, pc + innocent, pc + accepted)
    return D.PAUSE


@instruction(PAUSES)
def choose_option(st, fr: list, chooser: int, pc: int, options: tuple, end: int) -> int:
    """chooser picks one of a choice's options whose condition holds: a decision when two or more are
    offered; the effect goes on at the option's body (options: (option id, body offset, test or None)).

    One option offered is taken without asking; none, or an eliminated chooser, skips the choice (to `end`).
    """
    if chooser < 0 or st.eliminated[chooser]:
        return pc + end
    offered = tuple((option, pc + at) for option, at, test in options if test is None or test(st, fr))
    if len(offered) < 2:
        return offered[0][1] if offered else pc + end
    fr[D.F_PC] = pc
    st.pending = (D.OPTION, chooser, offered)       # the options offered: (option id, where its body starts)
    return D.PAUSE


@instruction()
def random_number(st, fr: list, low: int, high: int) -> int:
    """A whole number from low to high, both included, from the game's generator (bounds the wrong way
    round are taken in order); every player sees what was drawn."""
    if low > high:
        low, high = high, low
    value = st.random_between(low, high)
    if st.events is not None:
        st.events.append(E.Event(E.RANDOM, fr[F_SELF], count=value))
    return value


@instruction()
def random_pick(st, fr: list, name: str, values: tuple, cumulative: tuple, colored: bool) -> int:
    """One of distribution `name`'s values (numbers, or color indices when `colored`), by weight
    (`cumulative`: the running totals), from the game's generator; every player sees what was drawn."""
    value = st.random_choice(name, values, cumulative, colored)
    if st.events is not None:
        if colored:
            st.events.append(E.Event(E.RANDOM, fr[F_SELF], color=st.g.variant.colors[value], name=name))
        else:
            st.events.append(E.Event(E.RANDOM, fr[F_SELF], count=value, name=name))
    return value


@instruction(PUSHES)
def flip_again(st, fr: list, put_back: bool) -> int:
    """Turn up another start card: the old one stays buried, or goes back into the deck."""
    fr[D.F_PC] = len(st.g.codes[fr[D.F_CODE]][0])
    st.flips += 1
    if st.flips > st.g.deck_size or not st.draw_pile:
        return fr[D.F_PC]                       # nothing left to flip: keep this starter
    if put_back:
        old = st.discard.pop()
        st.draw_pile.append(old)
        st.shuffle_cards(st.draw_pile)
    k = st.draw_one()
    st.discard.append(k)
    st.color = st.g.k_color[k]
    if st.events is not None:
        st.events.append(E.Event(E.FLIPPED, cards=(st.g.card_names[k],)))
    code = st.g.on_start[st.g.k_type[k]]
    if code >= 0:
        st.push(code, fr[D.F_SELF], k, True, False)
    return fr[D.F_PC]


@instruction()
def score(st, p: int, n: int) -> None:
    """p scores n points at once: p's own score, or every member of p's team with scoring.by team."""
    if p < 0 or not n:
        return
    if st.g.rules.score_by_team:
        team = st.g.team_tables[st.n][0]
        for q in range(st.n):
            if team[q] == team[p]:
                st.scores[q] += n
    else:
        st.scores[p] += n
    if st.events is not None:
        st.events.append(E.Event(E.SCORED, p, count=n))


@instruction()
def note_drawn(st, p: int, before: int) -> None:
    """The end of turn.draw: the drawn card is the last one put in p's hand, if the effect left them more cards."""
    hand = st.hands[p]
    st.drawn_this_turn = hand[-1] if len(hand) > before else -1


@instruction(PAUSES)
def flip_all(st, p: int) -> int:
    """Every card of a two-sided deck turns over in place (hands, draw pile, discard pile, set-aside
    cards, named piles, hands shown), the other side becomes the active one and the color is the new top face's;
    a wild face up: p names the color (a decision). On a one-sided deck nothing happens."""
    g = st.g
    back = g.k_back
    if back is None:
        return 0
    for zone in (*st.hands, st.draw_pile, st.discard, *st.limbo, *st.piles,
                 *(c for seen in st.revealed.values() for c in seen.values())):
        zone[:] = [back[k] for k in zone]
    if st.drawn_this_turn >= 0:
        st.drawn_this_turn = back[st.drawn_this_turn]
    st.steps += g.deck_size
    st.side = 1 - st.side
    for pile in g.play_piles:               # a playable pile's color is its new top face's (a wild's: none)
        cards = st.piles[pile]
        st.pile_colors[pile] = -1 if not cards or g.k_wild[cards[-1]] else g.k_color[cards[-1]]
    if not st.discard:                      # no start card and no play yet: still no color, nothing on top
        if st.events is not None:
            st.events.append(E.Event(E.TURNED_OVER, p, count=st.side, name=g.variant.sides[st.side]))
        return 0
    top = st.discard[-1]
    st.color = -1 if g.k_wild[top] else g.k_color[top]
    if st.events is not None:
        st.events.append(E.Event(E.TURNED_OVER, p, count=st.side, cards=(g.card_names[top],), name=g.variant.sides[st.side]))
    if (st.color if st.on_pile < 0 else st.pile_colors[st.on_pile]) < 0 and g.variant.colors:
        return choose_color(st, p)          # a wild on top of the pile in play: p names its color
    return 0


# --- named piles (`piles:`): a pile is layout.DRAW_PILE, DISCARD_PILE or a pile slot's index (Tables.pile_names);
# layout.NO_PILE (a pile of each player whose owner is no player) gives and takes nothing.

def _take_top(st, pile: int) -> int:
    """Take the top card of a pile, or -1 when it has none to give.

    The draw pile is drawn from as by a draw (an empty one is refilled from the discard pile);
    the discard pile gives the card under its top card, which stays.
    """
    if pile == D.DRAW_PILE:
        return st.draw_one()
    if pile == D.DISCARD_PILE:
        return st.discard.pop(-2) if len(st.discard) > 1 else -1
    if pile == D.NO_PILE:
        return -1
    cards = st.piles[pile]
    if st.g.pile_playable[pile]:            # a pile played on keeps its top card in play, as the discard pile
        return cards.pop(-2) if len(cards) > 1 else -1
    return cards.pop() if cards else -1


def place_card(st, k: int, pile: int) -> None:
    """Put a card on top of a pile; on a pile played on (the discard pile, a playable one), under its top card
    (which stays the top)."""
    if pile == D.DRAW_PILE:
        st.draw_pile.append(k)
    elif pile == D.DISCARD_PILE:
        st.discard.insert(len(st.discard) - 1, k)
    elif st.g.pile_playable[pile]:
        cards = st.piles[pile]
        cards.insert(len(cards) - 1, k)
    else:
        st.piles[pile].append(k)


@instruction()
def move_cards(st, n: int, source: int, dest: int) -> None:
    """The top n cards of one pile go, one at a time, on top of another (fewer if it runs out)."""
    moved = 0
    if source != dest and dest != D.NO_PILE:
        for _ in range(min(n, st.g.deck_size)):
            k = _take_top(st, source)
            if k < 0:
                break
            place_card(st, k, dest)
            moved += 1
    st.steps += moved
    if st.events is not None and moved:
        g = st.g
        st.events.append(E.Event(E.MOVED, count=moved, source=E.pile_name(g, source), pile=E.pile_name(g, dest)))


@instruction()
def take_cards(st, p: int, n: int, source: int) -> None:
    """p takes the top n cards of a pile into their hand (fewer if it runs out); no after-draw event."""
    if p < 0 or st.eliminated[p]:
        return
    _took(st, p, _take_each(st, p, min(n, st.g.deck_size), lambda: _take_top(st, source)), source)


@instruction()
def take_pile(st, p: int, source: int, whole: bool) -> None:
    """p takes a pile's top card itself, or (`whole`) every card of it, the top card included: a pile played on
    then shows the card under it, whose color is in play there (a wild's: none), or nothing. The draw pile gives
    its top card as a draw does (refilled when empty), or the cards it holds. Not the discard pile (E552)."""
    if p < 0 or st.eliminated[p] or source in (D.DISCARD_PILE, D.NO_PILE):
        return
    if source == D.DRAW_PILE:                   # drawn as a draw is (engine/chance.py names each card)
        got = _take_each(st, p, len(st.draw_pile) if whole else 1, st.draw_one)   # an empty pile is refilled
    else:
        cards = st.piles[source]
        got = _take_each(st, p, st.g.deck_size if whole else 1, lambda: cards.pop() if cards else -1)
        if st.g.pile_playable[source]:
            g = st.g
            st.pile_colors[source] = -1 if not cards or g.k_wild[cards[-1]] else g.k_color[cards[-1]]
    _took(st, p, got, source)


def _take_each(st, p: int, count: int, take) -> int:
    """p takes up to `count` cards into their hand, one `take()` at a time (-1: none left), the card that knocks
    them out (round.eliminate_when) their last, each a step of the turn's work; how many they took."""
    hand = st.hands[p]
    watch = st.g.eliminate_when is not None
    got = 0
    for _ in range(count):
        k = take()
        if k < 0:
            break
        hand.append(k)
        got += 1
        if watch and st.knocked_out(p):
            break
    st.steps += got
    return got


def _took(st, p: int, got: int, source: int) -> None:
    """After p took `got` cards (the last of their hand) from a pile, if any: the event, then the hand's and cards'
    watchers."""
    if not got:
        return
    if st.events is not None:
        names = st.g.card_names
        st.events.append(E.Event(E.TOOK, p, count=got, cards=tuple(names[k] for k in st.hands[p][-got:]),
                                 source=E.pile_name(st.g, source)))
    st.hand_changed(p)
    st.cards_moved()


@instruction()
def take_where(st, fr: list, p: int, n: int, source: int, keep) -> None:
    """p takes up to n cards meeting `keep(st, fr, card)` from a pile, looking down from its top (on the
    discard pile, from under its top card, which stays); the others stay in their places."""
    if p < 0 or st.eliminated[p] or source in (D.DRAW_PILE, D.NO_PILE):
        return
    cards = st.discard if source == D.DISCARD_PILE else st.piles[source]
    played_on = source == D.DISCARD_PILE or st.g.pile_playable[source]      # its top card stays in play
    lowest = 0 if not played_on else 1 if cards else 0
    hand = st.hands[p]
    watch = st.g.eliminate_when is not None
    got, at = 0, len(cards) - 1 - played_on
    st.steps += max(0, at - lowest + 1)
    while at >= lowest and got < n:
        if keep(st, fr, cards[at]):
            hand.append(cards.pop(at))
            got += 1
            if watch and st.knocked_out(p):
                break                           # the card that knocks them out is their last
        at -= 1
    _took(st, p, got, source)


@instruction(RESHAPES)
def discard_where(st, fr: list, p: int, keep) -> None:
    """p discards every card meeting `keep(st, fr, card)`, under the top card (as discard_color does)."""
    if p < 0 or st.eliminated[p]:
        return
    hand = st.hands[p]
    st.steps += len(hand)
    meets = [keep(st, fr, k) for k in hand]         # the condition read once per card
    gone = [k for k, m in zip(hand, meets) if m]
    if not gone:
        return
    st.hands[p] = [k for k, m in zip(hand, meets) if not m]
    place = len(st.discard) - 1 if st.discard else 0
    st.discard[place:place] = gone
    st.hand_changed(p)
    if st.events is not None:
        names = st.g.card_names
        st.events.append(E.Event(E.DISCARDED, p, count=len(gone), cards=tuple([names[k] for k in gone])))
    st.cards_moved()


@instruction(PAUSES, RESHAPES)
def put_cards(st, p: int, n: int, dest: int) -> int:
    """p picks n of their cards, one decision each, to put on a pile (their hand may empty)."""
    if p < 0 or st.eliminated[p] or dest == D.NO_PILE:
        return 0
    n = min(n, len(st.hands[p]))
    if n <= 0:
        return 0
    st.pending = (D.PUT, p, n, dest)
    return D.PAUSE


# The decision each pausing instruction asks for: a saved decision made inside an effect must be one
# that the instructions of its innermost frame's code can ask (savefile.pending).
DECIDES = {"choose_color": D.COLOR, "choose_color_value": D.COLOR, "flip_all": D.COLOR, "choose_player": D.TARGET, "give": D.GIVE,
           "exchange_pick": D.GIVE, "trade": D.TRADE, "must_play": D.FORCED, "must_play_where": D.FORCED,
           "challenge": D.CHALLENGE,
           "choose_option": D.OPTION, "put_cards": D.PUT, "choose_secretly": D.TARGET,
           "choose_number": D.NUMBER, "choose_number_secretly": D.NUMBER}


# --- declared variables (engine/variables.py keeps their values)


def _set_event(st, var, p: int, value) -> None:
    kind = E.SET if var.visibility is Visibility.PUBLIC else E.SET_PRIVATELY
    st.events.append(E.Event(kind, p, name=var.name, value=shown_value(var, value, st.g.variant.colors)))


@instruction()
def set_var(st, index: int, value) -> None:
    """The global variable `index` (of the variant's state:) takes `value`, an int clamped to its min and max."""
    var = st.g.state_vars[index]
    if var.type is VarType.INT:
        value = var.clamp(value)
    st.vars[index] = value
    if st.events is not None:
        _set_event(st, var, -1, value)


@instruction()
def set_player_var(st, p: int, index: int, value) -> None:
    """p's value of the per-player variable `index` (of player_state:) takes `value`; nobody's for no player."""
    if p < 0:
        return
    var = st.g.player_vars[index]
    if var.type is VarType.INT:
        value = var.clamp(value)
    st.pvars[p][index] = value
    if st.events is not None:
        _set_event(st, var, p, value)


@instruction(DRAWS)
def draw_stack(st, p: int) -> None:
    """p draws the whole pending stack at once and the stack is closed: nobody faces it any more, so a turn
    it handed to its victim goes back to the usual order, and p loses no turn by it (the effect says if).
    With no stack open, or p out of the game, nothing happens."""
    if p < 0 or st.eliminated[p] or not st.stack:
        return
    total = st.stack
    if st.stack_victim >= 0 and st.next_exact == st.stack_victim:
        st.next_exact = -1                      # the victim was named to play next only to face the stack
    st.stack = 0
    st.stack_victim = -1
    st.stack_card = -1
    if st.events is not None:
        st.events.append(E.Event(E.STACK_TAKEN, p, count=total))
    draw(st, p, total)


@instruction()
def pass_stack(st, p: int, q: int) -> None:
    """p, who played a card on the pending draw stack, turns it away to q: q faces all of it on the next
    turn, as its victim. With no stack, or q out of the game, the stack stays with p (Moves._play_on_stack)."""
    if q < 0 or st.eliminated[q] or not st.stack:
        return
    st.stack_victim = q
    st.next_exact = q
    if st.events is not None:
        st.events.append(E.Event(E.STACK_PASSED, p, q, st.stack))
