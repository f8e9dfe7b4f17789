"""The contract between compiled code and the engine: all that an effect's code may read of the State and the
Game, assign, and ask the engine to do.

Compiled code is two things: the lowering's closures (`lambda st, fr: ...` in lower*.py and code.py: tests,
values, the work they count) and the instruction set (engine/ops.py: the ops those closures are called by).
Both reach the engine only through `st`, the state being played, and `st.g`, its Game. What they may use is
declared here, as data, and `tests/test_contract.py` holds the code to it by reading the source: a name used
that is not declared, or declared and no longer used, fails. So a change that makes effects depend on more of
the engine says so here first, and the engine knows which of its fields and methods are its interface to
effects (what `STATE_SERVICES` lists may not be renamed or change meaning without the ops changing too).

A field's meaning, type and who may see it are in engine/fields.py (each declared once); a service is a
State method, named here with what compiled code relies on it for.
"""

from __future__ import annotations

# Fields compiled code reads (lists among them may be changed in place: a hand appended to, a pile popped).
STATE_READS = frozenset({
    "color", "dealer", "direction", "discard", "draw_pile", "drawn_this_turn", "eliminated", "events", "flips",
    "hands", "limbo", "lost_turns", "n", "next_exact", "on_pile", "pile_colors", "piles", "pvars", "revealed", "scores",
    "set_play", "side", "skip", "skip_stack", "skip_victim", "stack", "stack_victim", "uno_called", "vars", "vulnerable",
})

# Fields compiled code assigns (`st.FIELD = ...`, `st.FIELD += ...`): the flow's only inputs from effects
# besides the lists above. `pending` is how an op pauses for a decision (with the op returning D.PAUSE).
STATE_ASSIGNS = frozenset({
    "color", "direction", "draw_pile", "drawn_this_turn", "flips", "limbo", "lock_color", "lock_owner",
    "next_exact", "pending", "side", "skip_stack", "skip_victim", "stack", "stack_card", "stack_victim", "steps",
    "turn_from",
})

# State methods compiled code calls: the engine's services, and what the code relies on each for.
STATE_SERVICES = {
    # seats: who plays where (engine/seats.py)
    "active_count": "how many players are still in the round",
    "extreme_hand": "the player with the most or fewest cards (or points) among a group",
    "hand_of": "a player's cards (none for nobody, -1)",
    "hand_points": "the points of a player's cards",
    "hand_size": "how many cards a player holds",
    "holds_playable": "whether a player could play a card now (bounded inside a strict restriction)",
    "in_play": "whether a player is still in the round with cards",
    "is_out": "whether a player is out of the round or out of cards",
    "left_of": "the seat to a player's left, whatever the direction",
    "right_of": "the seat to a player's right, whatever the direction",
    "next_of": "the next player in the direction of play still in the round",
    "previous_of": "the player before in the direction of play still in the round",
    "seat_after": "the seat after a player in the direction of play, in the round or not",
    "partner_of": "a player's teammate",
    "players_from": "the players in turn order from a seat",
    "role_of": "a player's role (roles:)",
    "same_team": "whether two players are on one team",
    "team_leads": "the team's seat that scores for it",
    "team_members": "a team's players",
    # cards: drawing, piles and chance (engine/cards.py)
    "draw_cards": "a player draws cards (refilling the draw pile as needed)",
    "draw_one": "one card off the draw pile, refilled when empty (-1: none left)",
    "draw_pile_top": "the draw pile's top card, which stays",
    "put_under_draw_pile": "cards put at the bottom of the draw pile",
    "is_playable": "whether a player may play a card now",
    "after_draw_event": "push the after-draw event for a player, if the variant has one",
    "hand_changed": "a hand changed outside its owner's play (UNO may be due)",
    "shuffle_cards": "shuffle cards with the game's generator",
    "random_between": "a random whole number in a range (pinned by a scenario's given random)",
    "random_choice": "a random value of a declared distribution",
    # flow: elimination (engine/flow.py)
    "cards_moved": "cards changed hands: test round.eliminate_when",
    "eliminate_by_rule": "eliminate every player round.eliminate_when holds for",
    "knocked_out": "whether round.eliminate_when holds for a player now",
    # moves and the VM (engine/moves.py, engine/vm.py)
    "push": "open a frame for another effect (run after the op returns)",
}

# Game tables compiled code reads (`st.g.NAME`, or through a local bound to `st.g`).
GAME_TABLES = frozenset({
    "after_draw", "card_names", "codes", "deck_size", "deflectors", "eliminate_from", "eliminate_when",
    "k_back", "k_color", "k_type", "k_wild", "number_top", "on_start", "orders", "pile_playable", "play_piles",
    "player_vars", "rules", "skip_kinds", "stacking", "state_vars", "team_tables", "variant",
})

# The source that is compiled code, relative to the unodsl package.
COMPILED_SOURCES = ("effects/code.py", "effects/lower.py", "effects/lower_expressions.py",
                    "effects/lower_statements.py", "engine/ops.py")
