"""What must hold after a scenario's actions: the `expect:` checks, cards conserved, refusals."""

from __future__ import annotations

from collections import Counter

from ..engine import Game, IllegalAction, State
from .given import action_id, card_kind, color_index, seat_index, variable_section


def check_conservation(state: State) -> str | None:
    """Say which cards were created or lost, or None when every zone adds up to the deck."""
    g = state.g
    seen = Counter()
    for hand in state.hands:
        seen.update(hand)
    seen.update(state.draw_pile)
    seen.update(state.discard)
    for part in (*state.limbo, *state.piles):
        seen.update(part)
    deck = Counter(g.deck_up(state.side, state.n))
    if seen == deck:
        return None
    extra = sorted(g.card_names[k] + f" ({seen[k]} of {deck[k]})" for k in seen if seen[k] > deck[k])
    lost = sorted(g.card_names[k] + f" ({seen[k]} of {deck[k]})" for k in deck if seen[k] < deck[k])
    parts = []
    if extra:
        parts.append("duplicated " + ", ".join(extra[:5]) + (" ..." if len(extra) > 5 else ""))
    if lost:
        parts.append("lost " + ", ".join(lost[:5]) + (" ..." if len(lost) > 5 else ""))
    return "cards are not conserved: " + "; ".join(parts)


def _cards(game: Game, kinds) -> str:
    return "[" + ", ".join(sorted(game.card_names[k] for k in kinds)) + "]"


def _seats(values) -> str:
    return "[" + ", ".join(map(str, sorted(values))) + "]"


def who_decides(state: State) -> str:
    """Who must act now and on which decision, for messages."""
    if state.over:
        return "none (the game is over)"
    return f"seat {state.current_player} ('{state.decision}')"


def check_expect(state: State, expect: dict, legal_before: list | None = None) -> list[tuple[tuple, str]]:
    """Compare the state with `expect`; return (key path, message) for every mismatch."""
    g = state.g
    n = state.n
    out: list[tuple[tuple, str]] = []

    def mismatch(key, expected, got, where=None):
        out.append((where or ("expect", key), f"{key}: expected {expected}, got {got}"))

    if "hands" in expect:
        wanted = expect["hands"]
        if len(wanted) != n:
            out.append((("expect", "hands"), f"hands: expected {len(wanted)} hands, the game has {n} players"))
        for seat, cards in enumerate(wanted[:n]):
            kinds = [card_kind(g, c, ("expect", "hands", seat, i)) for i, c in enumerate(cards)]
            if Counter(kinds) != Counter(state.hands[seat]):
                mismatch(f"hands[{seat}]", _cards(g, kinds), _cards(g, state.hands[seat]), ("expect", "hands", seat))
    if "hand_sizes" in expect:
        sizes = [len(h) for h in state.hands]
        if list(expect["hand_sizes"]) != sizes:
            mismatch("hand_sizes", expect["hand_sizes"], sizes)
    if "turn" in expect:
        got = state.current_player
        if got != expect["turn"]:
            mismatch("turn", expect["turn"], got if got >= 0 else "none (the game is over)")
    if "decision" in expect:
        got = state.decision or "none"
        if got != expect["decision"]:
            mismatch("decision", expect["decision"], got)
    if "color" in expect:
        want = expect["color"]
        color_index(g, want, ("expect", "color"))
        got = state.current_color or "none"
        if got != want:
            mismatch("color", want, got)
    if "side" in expect:
        sides = g.variant.sides or ("",)
        if sides[state.side] != expect["side"]:
            mismatch("side", expect["side"], sides[state.side] or "none (the deck has one side)")
    if "direction" in expect and expect["direction"] != state.direction:
        mismatch("direction", expect["direction"], state.direction)
    if "top" in expect:
        card_kind(g, expect["top"], ("expect", "top"))
        if state.top_card != expect["top"]:
            mismatch("top", expect["top"], state.top_card or "none (the discard pile is empty)")
    if "scores" in expect:
        if list(expect["scores"]) != list(state.scores):
            mismatch("scores", expect["scores"], list(state.scores))
    if "winner" in expect:
        got = state.winner if state.over else state.round_winner
        if got != expect["winner"]:
            mismatch("winner", "none" if expect["winner"] is None else expect["winner"],
                     "none" if got is None else got)
    if "over" in expect and bool(expect["over"]) != state.over:
        mismatch("over", str(expect["over"]).lower(), str(state.over).lower())
    if "draw_pile_size" in expect and expect["draw_pile_size"] != len(state.draw_pile):
        mismatch("draw_pile_size", expect["draw_pile_size"], len(state.draw_pile))
    if "discard_size" in expect and expect["discard_size"] != len(state.discard):
        mismatch("discard_size", expect["discard_size"], len(state.discard))
    for name, cards in (expect.get("piles") or {}).items():
        if name not in g.pile_names:
            mismatch(f"piles.{name}", "a pile of this variant", f"no pile '{name}'", ("expect", "piles", name))
            continue
        got = [g.card_names[k] for k in state.piles[g.pile_names.index(name)]]
        if list(cards) != got:
            mismatch(f"piles.{name}", cards, got, ("expect", "piles", name))
    for field in ("uno_called", "eliminated"):     # seat lists: the seats whose flag is set
        if field in expect:
            for i, seat in enumerate(expect[field]):
                seat_index(n, seat, ("expect", field, i))
            flags = getattr(state, field)
            got = [p for p in range(n) if flags[p]]
            if sorted(expect[field]) != got:
                mismatch(field, _seats(expect[field]), _seats(got))
    if "stack" in expect and expect["stack"] != state.stack:
        mismatch("stack", expect["stack"], state.stack)
    if "lock" in expect:
        want = expect["lock"]
        got = None if state.lock_owner < 0 else (g.variant.colors[state.lock_color], state.lock_owner)
        if want is None:
            if got is not None:
                mismatch("lock", "none", f"{got[0]} until seat {got[1]}'s turn")
        else:
            color_index(g, want["color"], ("expect", "lock", "color"))
            seat_index(n, want["owner"], ("expect", "lock", "owner"))
            if got != (want["color"], want["owner"]):
                mismatch("lock", f"{want['color']} until seat {want['owner']}'s turn",
                         "none" if got is None else f"{got[0]} until seat {got[1]}'s turn")
    if "revealed" in expect:
        for i, item in enumerate(expect["revealed"]):
            to = seat_index(n, item["to"], ("expect", "revealed", i, "to"))
            of = seat_index(n, item["of"], ("expect", "revealed", i, "of"))
            seen = state.revealed.get(to, {}).get(of)
            if "cards" in item:
                kinds = [card_kind(g, c, ("expect", "revealed", i, "cards", j)) for j, c in enumerate(item["cards"])]
                if seen is None or Counter(seen) != Counter(kinds):
                    mismatch(f"revealed[{i}]", f"seat {to} saw {_cards(g, kinds)} of seat {of}",
                             f"seat {to} saw nothing of seat {of}" if seen is None
                             else f"seat {to} saw {_cards(g, seen)}", ("expect", "revealed", i))
            elif seen is None:
                mismatch(f"revealed[{i}]", f"seat {to} saw seat {of}'s hand", "nothing was shown",
                         ("expect", "revealed", i))
    for key in ("state", "player_state"):
        for name, want in (expect.get(key) or {}).items():
            variable_section(g, key, name, ("expect", key, name))
            got = state.variable(name) if key == "state" else [state.variable(name, q) for q in range(n)]
            if got != want:
                mismatch(f"{key}.{name}", want, got, ("expect", key, name))
    for key, must in (("legal", True), ("not_legal", False)):
        if key not in expect:
            continue
        legal = set(state.legal_action_ids()) if legal_before is None else set(legal_before)
        for i, text in enumerate(expect[key]):
            a = action_id(g, text, ("expect", key, i))
            if (a in legal) != must:
                shown = ", ".join(g.action_to_string(x) for x in sorted(legal)) or "nothing"
                verdict = "is not legal" if must else "is legal"
                out.append((("expect", key, i), f"{key}: '{text}' {verdict} for {who_decides(state)}; "
                            f"legal: {shown}"))
    return out


def check_refusal(state: State, text: str, a: int, reason: str | None) -> list[tuple[tuple, str]]:
    """Try the refused action on a copy: it must raise IllegalAction and change nothing."""
    before = state.to_json()
    probe = state.clone()
    try:
        probe.apply(a)
    except IllegalAction as err:
        out = []
        if probe.to_json() != before:
            out.append((("expect", "refused"), f"refused: '{text}' was refused but the state changed"))
        if reason is not None and reason.lower() not in err.reason.lower():
            out.append((("expect", "reason"), f"reason: expected a refusal containing '{reason}', got '{err.reason}'"))
        return out
    except Exception as err:
        return [(("expect", "refused"), f"refused: the engine failed on '{text}': {type(err).__name__}: {err}")]
    return [(("expect", "refused"), f"refused: '{text}' was accepted")]

