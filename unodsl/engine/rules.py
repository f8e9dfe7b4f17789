"""A Game's rule choices: every mode of the variant decided once, in one record.

`choose_rules(variant, program, fast)` is a pure function of the variant's modes (its enums), of what its
effects compiled to (`Compiled`: which hooks exist, what a condition turned out to be constant) and of the
mode asked for (fast or reference). Nothing the turn reads is decided from source text, and nothing is
decided twice: the Game copies the fields its turn reads on every decision into its own slots, in one
block (Game.__init__), and everything else reads `game.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.variant import CatchLimit, DrawnCard, NoPlayable, RoundEnds, ScoreBy, Scoring, Stacking, Variant


@dataclass(frozen=True, slots=True)
class Compiled:
    """What the rule choices need to know of the compiled program (engine/program.py): code ids, -1 where the
    variant has no such effect; whether a condition exists, and its constant value where the variant alone
    decides it (True, False; None: it reads the game)."""
    after_draw: int
    turn_draw: int
    turn_start: int
    card_played: int
    windows: bool
    eliminates: bool                 # round.eliminate_when compiled
    wins: bool                       # round.win_when compiled
    may_draw_constant: bool | None
    scores_by_effect: bool           # some effect says `P scores N`
    play_piles: bool                 # some declared pile is played on


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule choices (docs/language.md names the YAML key each comes from)."""
    # --- the turn
    draws_until_playable: bool       # turn.no_playable: draw_until_playable
    offers_drawn: bool               # turn.drawn_card is not forbidden: a playable drawn card is offered
    may_keep_drawn: bool             # ... and may be kept (not forced)
    may_always_draw: bool            # turn.may_draw_if absent, or true whatever the game
    simple_draw: bool                # the fast mode's draw: one card, offered, nothing run after it
    jump_in: bool
    stacking: bool
    lock_allows_wild: bool           # a color lock lets wilds through
    max_turns: int                   # round.max_turns
    plain_turns: int                 # a turn below this needs no window before it (-1: never)
    blocked: bool                    # round.blocked: the round may end with nobody able to go on
    reshuffle: bool                  # the discard pile is shuffled into an empty draw pile
    plain_plays: bool                # a card with no effect nor restriction may take the plain play (fast mode)
    straight_draws: bool             # a straight effect may draw (no after-draw event to run)
    # --- UNO calls
    uno_enabled: bool
    uno_hand: int                    # the hand a play may add `uno` to (uno.at + 1 cards); -1: no call
    uno_left: int                    # the hand that must call (uno.at); -1: no call
    false_calls: bool                # uno.false_call: a call may be made with any play, and a false one costs
    wrong_catches: bool              # uno.catch.wrong: a wrong accusation costs
    catch_rules: bool                # uno.catch.if, .wrong or .limit: the catch window's general path
    catch_once_per_round: bool       # uno.catch.limit: round
    catch_once_per_window: bool      # uno.catch.limit: window
    out_calls: bool                  # uno.out: the last card's play carries the out call
    # --- the round and the match
    first_out_ends: bool             # round.ends: first_out
    team_out_ends: bool              # round.ends: team_out
    rounds_score: bool               # a round can change a score: a match is more than one round
    score_by_team: bool              # scoring.by: team


def choose_rules(v: Variant, program: Compiled, fast: bool) -> Rules:
    """The rule choices of `v`, its effects compiled to `program`, in the fast mode or the reference mode."""
    blocked = v.blocked is not None
    uno_enabled = v.uno_enabled
    uno_left = v.uno_at if uno_enabled else -1
    wrong_catches = uno_enabled and v.uno_wrong_catch is not None
    # The simple draw ends a turn without settling it, so it is not taken when an elimination rule or a
    # winning rule (round.win_when) must be tested.
    settles = program.eliminates or program.wins
    return Rules(
        draws_until_playable=v.no_playable is NoPlayable.DRAW_UNTIL_PLAYABLE,
        offers_drawn=v.drawn_card is not DrawnCard.FORBIDDEN,
        may_keep_drawn=v.drawn_card is not DrawnCard.FORCED,
        may_always_draw=v.may_draw_if is None or program.may_draw_constant is True,
        simple_draw=(fast and v.no_playable is NoPlayable.DRAW_ONE and v.drawn_card is not DrawnCard.FORBIDDEN
                     and program.after_draw < 0 and program.turn_draw < 0 and not settles),
        jump_in=v.jump_in,
        stacking=v.stacking is not Stacking.NONE,
        lock_allows_wild=v.lock_allows_wild,
        max_turns=v.max_turns,
        # A jump-in window, a turn_start hook, a blocked round, a catch window that may open for a player who
        # called (uno.catch.wrong) and a declared window are all the State's hand-off.
        plain_turns=(-1 if v.jump_in or program.turn_start >= 0 or blocked or v.uno_wrong_catch is not None
                     or program.windows else v.max_turns),
        blocked=blocked,
        reshuffle=v.reshuffle,
        # A plain play skips the UNO call of a play that leaves one card, so not where a larger hand must call
        # (uno.at); a card_played hook runs after every play; a set's play goes on (sets.py); a false call is
        # judged with every play; a plain play goes on the discard pile; with round.win_when none is plain.
        plain_plays=(fast and not program.wins and uno_left <= 1 and v.sets is None and program.card_played < 0
                     and v.uno_false_call is None and not program.play_piles),
        straight_draws=program.after_draw < 0,
        uno_enabled=uno_enabled,
        uno_hand=v.uno_at + 1 if uno_enabled else -1,
        uno_left=uno_left,
        false_calls=uno_enabled and v.uno_false_call is not None,
        wrong_catches=wrong_catches,
        catch_rules=v.uno_catch_if is not None or wrong_catches or v.uno_catch_limit is not CatchLimit.NONE,
        catch_once_per_round=v.uno_catch_limit is CatchLimit.ROUND,
        catch_once_per_window=v.uno_catch_limit is CatchLimit.WINDOW,
        out_calls=uno_enabled and v.uno_out_call is not None,
        first_out_ends=v.round_ends is RoundEnds.FIRST_OUT,
        team_out_ends=v.round_ends is RoundEnds.TEAM_OUT,
        rounds_score=v.scoring is not Scoring.NONE or program.scores_by_effect,
        score_by_team=v.score_by is ScoreBy.TEAM,
    )
