"""The effect language: parser and compiler diagnostics, pinned with their exact caret output.

Each case writes a tiny variant (extending a small valid base) into tmp_path, runs
`check_file`, and compares `format_full` -- header, source line and caret -- with the
exact text a user would see. Positions are file positions: the caret must sit under
the offending token inside the effect string, whatever the YAML scalar style.
"""

from __future__ import annotations

import functools
import random
import textwrap
from pathlib import Path

import pytest
from lark import Lark, Token, Tree

from unodsl.engine.ops import OP_FLAGS, OPS
from unodsl.engine.program import Program
from unodsl.effects import lower
from unodsl.effects import parse as effects
from unodsl.check import check_file
from unodsl.diagnostics import format_full
from unodsl.effects.check import Context
from unodsl.effects.layout import F_LOCALS, F_SELF
from unodsl.effects.parse import _EffectIndenter, grammar_path, parse, parse_tree, parser
from unodsl.effects.lexer import ContextLexer
from unodsl.model.variant import Text

REPO = Path(__file__).resolve().parent.parent
BASE = (REPO / "tests" / "corpus" / "base.yaml").read_text(encoding="utf-8")
HEAD = "extends: base.yaml\nunodsl: 1\nname: Effects\ncards:\n  x:\n    per_color: 1\n    points: 20\n"


@pytest.fixture
def full(tmp_path, monkeypatch):
    """Check `HEAD + body` as v.yaml (from inside tmp_path, so paths print short) and return format_full."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "base.yaml").write_text(BASE, encoding="utf-8")

    def run(body: str) -> str:
        # Bodies are written at 8 spaces in this file; strip exactly those (a card key sits at 4).
        lines = [line[8:] if line.startswith(" " * 8) else line.lstrip(" ") for line in body.split("\n")]
        (tmp_path / "v.yaml").write_text(HEAD + "\n".join(lines), encoding="utf-8")
        result = check_file("v.yaml", root=".")
        return format_full(result.diagnostics, result.texts)
    return run


def pinned(text: str) -> str:
    return textwrap.dedent(text).strip("\n")


# ---------------------------------------------------------------- E4xx: syntax


def test_unexpected_token_in_one_line_effect(full):
    assert full("""\
            on_play: next draws 2 2
        """) == pinned("""
        v.yaml:8:27: E401 unexpected '2'; expected ')', '*', '//' or '%', '+' or '-', ':', ';', 'and', 'card', 'cards', ...
                on_play: next draws 2 2
                                      ^
        """)


def test_bad_token_on_second_line_of_block(full):
    assert full("""\
            on_play: |
              reverse
              set color red blue
        """) == pinned("""
        v.yaml:10:21: E401 unexpected 'blue'; expected '(', ')', '*', '//' or '%', '+' or '-', ':', ';', 'and', 'card', ...
                  set color red blue
                                ^
        """)


def test_unexpected_character_on_second_line_of_block(full):
    assert full("""\
            on_play: |
              reverse
              next draws 2 $ 3
        """) == pinned("""
        v.yaml:10:20: E402 unexpected character '$'
                  next draws 2 $ 3
                               ^
        """)


def test_condition_split_across_lines_error_on_line_two(full):
    assert full("""\
            restriction: |
              not self holds color current
              and not self holds wild)
        """) == pinned("""
        v.yaml:10:30: E401 unexpected ')'; expected end of line, end of text
                  and not self holds wild)
                                         ^
        """)


def test_condition_folded_plain_scalar_error_on_line_two(full):
    assert full("""\
            restriction: not self holds color current
              and not self holds wild)
        """) == pinned("""
        v.yaml:9:30: E401 unexpected ')'; expected end of line, end of text
                  and not self holds wild)
                                         ^
        """)


def test_unexpected_end_of_quoted_effect(full):
    assert full("""\
            on_play: 'if players == 2:'
        """) == pinned("""
        v.yaml:8:31: E401 unexpected end of text; expected an indented block
                on_play: 'if players == 2:'
                                          ^
        """)


def test_error_after_double_quoted_escape(full):
    # "\t" is two characters in the file but one in the value: the caret must follow the file.
    assert full("""\
            on_play: "skip\\tnext 2 2"
        """) == pinned("""
        v.yaml:8:28: E401 unexpected '2'; expected ';', end of line
                on_play: "skip\\tnext 2 2"
                                       ^
        """)


def test_single_quote_character_message(full):
    # Reads badly: the quote character is shown inside quotes as '''.
    assert full("""\
            on_play: 'let x = ''a'''
        """) == pinned("""
        v.yaml:8:23: E402 unexpected character "'"
                on_play: 'let x = ''a'''
                                  ^
        """)


def test_bad_dedent_points_at_the_line(full):
    # Once reported at the effect's first character with Lark's 0-based columns in the message;
    # now at the start of the line whose indentation matches no block.
    assert full("""\
            on_play: |
              if players == 2:
                  skip next
                reverse
        """) == pinned("""
        v.yaml:11:7: E403 this line's indentation matches no enclosing block
                    reverse
                  ^
        """)


def test_unexpected_indent_wording(full):
    assert full("""\
            on_play: |
              reverse
                  skip next
        """) == pinned("""
        v.yaml:9:14: E401 unexpected indentation; expected 'all', 'catcher', 'choose', 'clear', 'dealer', 'do', 'eliminate', 'extra', ...
                  reverse
                         ^
        """)


def test_doubled_keyword_is_read_as_a_name(full):
    # Keywords are not reserved, so the second 'draws' is a player variable and the parser stops
    # one token later than the real mistake.
    assert full("""\
            on_play: next draws draws 2
        """) == pinned("""
        v.yaml:8:31: E401 unexpected '2'; expected '(', ')', '*', '//' or '%', '+' or '-', ':', ';', 'and', 'card', ...
                on_play: next draws draws 2
                                          ^
        """)


def test_doubled_and_gets_a_misleading_suggestion(full):
    # Pinned as it is: the second 'and' is read as a variable, so the parser stops at 'hand' and
    # suggests 'and' for it, although 'hand' is right and the doubled 'and' is the mistake.
    assert full("""\
            restriction: hand(self) > 2 and and hand(next) > 2
        """) == pinned("""
        v.yaml:8:41: E401 unexpected 'hand'; expected '(', ')', '*', '//' or '%', '+' or '-', ':', ';', 'and', 'card', ... (did you mean 'and'?)
                restriction: hand(self) > 2 and and hand(next) > 2
                                                    ^
        """)


# ---------------------------------------------------------------- E5xx: meaning


def test_unknown_name_with_did_you_mean(full):
    assert full("""\
            on_play: |
              let victim = choose player others
              victm draws 2
        """) == pinned("""
        v.yaml:10:7: E502 unknown name 'victm' (did you mean 'victim'?)
                  victm draws 2
                  ^
        """)


def test_unknown_color_with_did_you_mean(full):
    assert full("""\
            on_play: set color reed
        """) == pinned("""
        v.yaml:8:24: E502 unknown name 'reed' (did you mean 'red'?)
                on_play: set color reed
                                   ^
        """)


def test_unknown_ruling_with_did_you_mean(full):
    assert full("""\
            on_play: |
              if rule.stak_rule:
                  skip next
        rulings:
          stack_rule: {value: true}
        """) == pinned("""
        v.yaml:9:10: E502 unknown ruling 'stak_rule' (did you mean 'stack_rule'?)
                  if rule.stak_rule:
                     ^
        """)                                        # no W301 beside it: the broken effect is the one that reads it


def test_unknown_card_attribute(full):
    assert full("""\
            on_play: 'if card.colour == red: skip next'
        """) == pinned("""
        v.yaml:8:18: E502 cards have no attribute 'colour' (did you mean 'color'?)
                on_play: 'if card.colour == red: skip next'
                             ^
        """)


def test_misspelt_player_word_gets_a_suggestion(full):
    # 'nxt' is read as a variable; the suggestions hold variables, colors and the player words.
    assert full("""\
            on_play: nxt draws 2
        """) == pinned("""
        v.yaml:8:14: E502 unknown name 'nxt' (did you mean 'next'?)
                on_play: nxt draws 2
                         ^
        """)


def test_meaning_error_on_second_line_of_a_condition(full):
    # Conditions are parsed flattened onto one line; compile errors must map back to their line.
    assert full("""\
            restriction: |
              not self holds color current
              and not self holds color reed
        """) == pinned("""
        v.yaml:10:32: E502 unknown name 'reed' (did you mean 'red'?)
                  and not self holds color reed
                                           ^
        """)


def test_comment_line_inside_a_block_then_an_error(full):
    assert full("""\
            on_play: |
              if players == 2:
                  # two players: reverse acts as skip
                  skip next
              next draws red
        """) == pinned("""
        v.yaml:12:18: E501 expected a number, got a color
                  next draws red
                             ^
        """)


def test_type_error(full):
    assert full("""\
            on_play: next draws red
        """) == pinned("""
        v.yaml:8:25: E501 expected a number, got a color
                on_play: next draws red
                                    ^
        """)


def test_type_errors_in_a_block_are_all_reported(full):
    assert full("""\
            on_play: |
              set color 3
              if hand(self) < red:
                  skip next
              next draws self
        """) == pinned("""
        v.yaml:9:17: E501 expected a color, got a number
                  set color 3
                            ^
        v.yaml:10:10: E501 cannot compare a number with a color
                  if hand(self) < red:
                     ^
        v.yaml:12:18: E501 expected a number, got a player
                  next draws self
                             ^
        """)


def test_partner_without_teams(full):
    assert full("""\
            on_play: partner draws 1
        """) == pinned("""
        v.yaml:8:14: E503 this refers to teams, but the variant has no teams
                on_play: partner draws 1
                         ^
        """)


def test_flip_again_outside_on_start(full):
    assert full("""\
            on_play: flip again
        """) == pinned("""
        v.yaml:8:14: E507 'flip again' only makes sense for the start card (on_start or start.default)
                on_play: flip again
                         ^
        """)


def test_repeat_bound(full):
    assert full("""\
            on_play: 'repeat 5000: skip next'
        """) == pinned("""
        v.yaml:8:22: E506 repeat 5000 is over the limit of 1000
                on_play: 'repeat 5000: skip next'
                                 ^
        """)


# ---------------------------------------------------------------- parse() on its own


@pytest.mark.parametrize("source, start", [
    ("next draws 2 and loses turn", "effect"),
    ("reverse\nif players == 2 and rule.x:\n    skip next\n", "effect"),
    ("choose color\nnext may challenge:\n    guilty: self draws 4\n    innocent: next draws 6 and loses turn\n"
     "    accepted: next draws 4 and loses turn\n", "effect"),
    ("let largest = max hand of all\nfor each p in all from next:\n    p draws to largest\nchoose color", "effect"),
    ("repeat 3: next draws 1; skip next", "effect"),
    ("next must play color red else:\n    next draws 2\n", "effect"),
    ("not self holds color current\nand not (rule.x and self holds wild)", "condition"),
    ("hand(next) == 1 or -points(self) // 2 >= 3 * count(others)", "condition"),
    ("card is wild and card.number != 7", "condition"),
    ("", "effect"),
    ("# only a comment\n", "effect"),
])
def test_valid_sources_parse_without_diagnostics(source, start):
    tree, diags = parse(Text(source), start)
    assert diags == [] and tree is not None


@pytest.mark.parametrize("source, start, line, column, code", [
    ("next draws 2 2", "effect", 1, 14, "E401"),
    ("reverse\nnext draws 2 $", "effect", 2, 14, "E402"),
    ("if players == 2:", "effect", 1, 17, "E401"),
    ("not self holds color current\nand )", "condition", 2, 5, "E401"),
    ("hand(self) > 2\n  and )", "condition", 2, 7, "E401"),
    ("self holds", "condition", 1, 11, "E401"),
])
def test_parse_positions_without_a_node(source, start, line, column, code):
    tree, diags = parse(Text(source), start)
    assert tree is None
    assert [(d.path, d.line, d.column, d.code) for d in diags] == [("<builtin>", line, column, code)]


def test_parser_is_built_once():
    assert parser() is parser()


# ---------------------------------------------------------------- grammar regressions (bugs found by this suite)


def test_comment_line_inside_block_parses():
    tree, diags = parse(Text("if players == 2:\n    # two players\n    skip next\nreverse\n"))
    assert diags == []


def test_dedented_comment_line_parses():
    tree, diags = parse(Text("reverse\n  # a note\nskip next\n"))
    assert diags == []


def test_statements_need_a_separator():
    tree, diags = parse(Text("if players == 2: skip next reverse"))
    assert tree is None and [d.code for d in diags] == ["E401"]


@pytest.mark.parametrize("expression", ["1 + " * 400 + "1", "- " * 400 + "1", "half(" * 400 + "1" + ")" * 400],
                         ids=["sum", "negation", "half"])
def test_deeply_nested_expression_gets_a_located_diagnostic(full, expression):
    # Once an internal error at 1:1 (RecursionError); now E513 inside the effect. Note that a long
    # flat sum counts as nesting too ("nested more than 40 levels deep" for 41 terms).
    out = full(f"""\
            on_play: 'next draws {expression}'
        """)
    header = out.splitlines()[0]
    assert header.startswith("v.yaml:8:") and " E513 " in header, out
    assert "E599" not in out


def test_huge_integer_literal_gets_a_located_diagnostic(full):
    # Once an internal error at 1:1 (int() refuses over 4300 digits); now E512 at the number.
    out = full(f"""\
            on_play: 'next draws {"9" * 5000}'
        """)
    assert out.splitlines()[0] == "v.yaml:8:26: E512 number 999999999999... is too large (at most 1000000)"


# ---------------------------------------------------------------- the lexer picks tokens by parser state


@functools.lru_cache(maxsize=1)
def lark_contextual() -> Lark:
    """The effect parser with Lark's own ContextualLexer, which ContextLexer must match token for token."""
    return Lark(grammar_path().read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                postlex=_EffectIndenter(), start=["effect", "condition"], propagate_positions=True,
                maybe_placeholders=False, cache=True)


def tokens(tree: Tree) -> list[tuple]:
    """Every token kept in a tree, with its type and full position."""
    return [(t.type, str(t), t.start_pos, t.line, t.column, t.end_line, t.end_column, t.end_pos)
            for t in tree.scan_values(lambda v: isinstance(v, Token))]


def shipped_texts(monkeypatch) -> list[tuple[str, str]]:
    """Every effect and condition text that checking the shipped variants parses."""
    seen = set()
    real = effects.parse

    def recording(text: Text, start: str = "effect"):
        seen.add((text.source, start))
        return real(text, start)
    with monkeypatch.context() as patch:
        patch.setattr(effects, "parse", recording)
        for path in sorted((REPO / "variants").glob("**/*.yaml")):
            if "scenarios" not in path.parts:
                check_file(str(path), root=str(REPO))
    return sorted(seen)


def test_parser_uses_the_single_regex_lexer():
    assert parser().options.lexer is ContextLexer


def test_keyword_is_a_name_where_only_a_name_fits():
    tree, diags = parse_tree(Text("card.number == 7 and card is number"), "condition")
    assert diags == []
    assert [t[:2] for t in tokens(tree)] == [("NAME", "number"), ("COMP_OP", "=="), ("INT", "7"), ("KIND", "number")]


def test_keywords_as_hold_type_and_variable():
    tree, diags = parse_tree(Text("let color = 2\nif self holds card skip: self draws color"))
    assert diags == []
    assert [t[:2] for t in tokens(tree)] == [("NAME", "color"), ("INT", "2"), ("NAME", "skip"), ("NAME", "color")]


def test_minus_is_unary_or_binary_by_position():
    tree, diags = parse_tree(Text("-1 - -2 > 0"), "condition")
    assert diags == []
    difference = tree.children[0].children[0]
    assert difference.data == "binop" and difference.children[1].type == "ADD_OP"
    assert [child.data for child in difference.children[::2]] == ["neg", "neg"]


@pytest.mark.parametrize("source, message", [
    # after `holds` no name fits, so `wildcard` is read as the keyword `wild`, then `card`
    ("self holds wildcard", "E401 unexpected 'card'; expected ')', '+' or '-', ':', ';', 'and', 'else', 'or', "
                            "'until', ..."),
    ("self holds 5", "E401 unexpected '5'; expected 'card', 'color', 'number', 'playable', 'wild', end of line"),
    ("self holds skip", "E401 unexpected 'skip'; expected 'card', 'color', 'number', 'playable', 'wild', "
                        "end of line"),
])
def test_a_token_the_state_cannot_take_is_reported_as_before(source, message):
    _, diags = parse_tree(Text(source), "condition")
    assert [f"{d.code} {d.message}" for d in diags] == [message]


def test_lexers_agree_on_every_shipped_text(monkeypatch):
    texts = shipped_texts(monkeypatch)
    assert len(texts) > 20
    ours = [parse_tree(Text(source), start) for source, start in texts]
    monkeypatch.setattr(effects, "parser", lark_contextual)
    theirs = [parse_tree(Text(source), start) for source, start in texts]
    assert all(tree is not None for tree, _ in ours)
    assert [(tree, tokens(tree), diags) for tree, diags in ours] == \
           [(tree, tokens(tree), diags) for tree, diags in theirs]


@pytest.mark.parametrize("source, start", [
    ("let x == 3", "effect"), ("card is numbers", "condition"), ("self draws @", "effect"),
    ("skipper next", "effect"), ("next draws 2 -", "effect"), ("self draws 1 //// 2", "effect"),
    ("rule.", "condition"), ('card.color == "red', "condition"), ("reverse\n  skip next", "effect"),
    ("if card.number <== 2:\n    skip next", "effect"), ("self holds card 3", "condition"),
])
def test_lexers_agree_on_broken_texts(monkeypatch, source, start):
    ours = parse_tree(Text(source), start)
    monkeypatch.setattr(effects, "parser", lark_contextual)
    assert ours[0] is None and parse_tree(Text(source), start) == ours


def test_lexers_agree_on_mangled_shipped_texts(monkeypatch):
    """Shipped texts with words swapped, doubled, dropped or glued: same trees or same diagnostics."""
    texts = shipped_texts(monkeypatch)
    words = sorted({word for source, _ in texts for word in source.split()}
                   | {"-", "=", "<", "//", "@", "#", ":"})
    rng = random.Random(7)
    mangled = []
    for source, start in texts * 10:
        parts = source.split(" ")
        position = rng.randrange(len(parts))
        parts[position:position + rng.randint(0, 1)] = [rng.choice(words)] * rng.randint(0, 2)
        mangled.append((rng.choice([" ", "", " ", "\n"]).join(parts), start))
    ours = [parse_tree(Text(source), start) for source, start in mangled]
    monkeypatch.setattr(effects, "parser", lark_contextual)
    theirs = [parse_tree(Text(source), start) for source, start in mangled]
    assert [(tree, tree and tokens(tree), diags) for tree, diags in ours] == \
           [(tree, tree and tokens(tree), diags) for tree, diags in theirs]
    assert sum(tree is None for tree, _ in ours) > 50


# ---------------------------------------------------------------- constant folding


@functools.lru_cache(maxsize=None)
def classic_game(two_player_reverse_is_skip: bool, fast: bool | None = None):
    from unodsl.check import load
    return load(str(REPO / "variants" / "classic.yaml"), str(REPO),
                {"two_player_reverse_is_skip": two_player_reverse_is_skip}, fast=fast)


def compile_condition(game, condition: str) -> lower.Predicate:
    """A condition of ours, checked and lowered against `game`."""
    tree, diags = parse(Text(condition), "condition")
    assert tree is not None, diags
    program = Program(game, OPS, OP_FLAGS)
    predicate = program.compile_condition(tree, Context("condition"))
    assert predicate is not None, program.checker.diags
    return predicate


def compile_effect(game, text: str, where: str = "on_play") -> tuple[int, lower.Code]:
    """An effect of ours, checked, lowered and registered in `game`: its code id and Code record."""
    tree, diags = parse(Text(text))
    assert tree is not None, diags
    program = Program(game, OPS, OP_FLAGS)
    code = program.compile_effect(tree, Context(where), where)
    assert code >= 0, program.checker.diags
    return code, program.code(code)


def evaluate(condition: str, ruling: bool, hand_size: int) -> tuple[bool, bool]:
    """(value, compiled to a constant) of a condition for player 0, whose hand is cut to hand_size."""
    game = classic_game(ruling)
    predicate = compile_condition(game, condition)
    state = game.new_game(3, seed=1)
    state.hands[0] = state.hands[0][:hand_size]
    return predicate.fn(state, [-1, 0, 0, -1, True, False]), predicate.constant is not None


@pytest.mark.parametrize("condition,ruling,hand,expected", [
    ("rule.two_player_reverse_is_skip and hand(self) > 2", True, 5, (True, False)),
    ("rule.two_player_reverse_is_skip and hand(self) > 2", True, 1, (False, False)),
    ("rule.two_player_reverse_is_skip and hand(self) > 2", False, 5, (False, True)),
    ("hand(self) > 2 or rule.two_player_reverse_is_skip", True, 1, (True, True)),     # true decides an `or`
    ("hand(self) > 2 or rule.two_player_reverse_is_skip", False, 1, (False, False)),
    ("hand(self) > 2 or rule.two_player_reverse_is_skip", False, 3, (True, False)),
    ("rule.two_player_reverse_is_skip", True, 5, (True, True)),
    ("not rule.two_player_reverse_is_skip", True, 5, (False, True)),
    ("1 + 2 * 3 == 7 and true", True, 5, (True, True)),
    ("2 - 5 < 0 or false", False, 5, (True, True)),
    ("hand(self) == 4", True, 4, (True, False)),
    ("hand(self) != 4", True, 4, (False, False)),
    ("hand(self) >= 4 and hand(self) <= 4 and hand(self) < 5 and hand(self) > 3", True, 4, (True, False)),
    ("players == 3 and hand(next) == 7 and true", True, 4, (True, False)),
])
def test_folded_conditions_keep_their_meaning(condition, ruling, hand, expected):
    value, constant = evaluate(condition, ruling, hand)
    assert (value is True or value is False) and (value, constant) == expected


def test_if_on_a_constant_runs_only_its_branch():
    from unodsl.check import load
    for ruling, drawn in ((True, 2), (False, 1)):
        game = load(str(REPO / "variants" / "classic.yaml"), str(REPO), {"two_player_reverse_is_skip": ruling})
        code, _ = compile_effect(game, "if rule.two_player_reverse_is_skip:\n    next draws 2\nelse:\n"
                                       "    next draws 1\n")
        state = game.new_game(3, seed=1)
        before = len(state.hands[1])
        state.push(code, 0, -1, True, False)
        assert state.run()
        assert len(state.hands[1]) - before == drawn


@pytest.mark.parametrize("condition,hand,expected", [
    # Expressions have no side effects: a deciding constant anywhere decides the whole (effects.fold).
    ("hand(self) > 2 and false", 5, (False, True)),
    ("hand(self) > 2 or true or hand(next) == 1", 1, (True, True)),
    ("false and hand(self) > 2", 5, (False, True)),
    ("true or hand(self) > 2", 1, (True, True)),
    ("hand(self) > 9 or hand(self) > 8 or hand(self) > 2", 5, (True, False)),
    ("hand(self) > 9 or hand(self) > 8 or hand(self) > 2", 1, (False, False)),
])
def test_a_deciding_constant_ends_the_condition(condition, hand, expected):
    value, constant = evaluate(condition, True, hand)
    assert (value is True or value is False) and (value, constant) == expected


@pytest.mark.parametrize("condition", [
    "1000000 * 1000000 + 1000000 == 1000000 * 1000",    # the product is held to 10**9, and so is the sum
    "0 - 1000000 * 1000000 - 1000000 == 0 - 1000000 * 1000",    # the difference too (issue 30.7)
    "1000000 * 1000000 * 1000000 == 1000000 * 1000",
    "0 - 1000000 * 1000000 * 1000000 < 0",
])
def test_folded_arithmetic_matches_run_time_arithmetic(condition):
    folded, constant = evaluate(condition, True, 5)
    # The same expression with a hand size in it cannot be folded; it must agree.
    unfolded, still_constant = evaluate(condition.replace("1000000", "(1000000 + hand(self) - 5)", 1), True, 5)
    assert constant and not still_constant
    assert folded is True and unfolded is True


# ---------------------------------------------------------------- specialized ops


@pytest.mark.parametrize("args,expected", [
    ((), ()),
    (("const",), (7,)),
    (("slot",), (2,)),
    (("call",), (40,)),
    (("slot", "const"), (2, 7)),
    (("call", "const"), (40, 7)),
    (("slot", "call"), (2, 40)),
    (("call", "call"), (40, 40)),
    (("const", "slot"), (7, 2)),
    (("call", "slot", "const"), (40, 2, 7)),
])
def test_a_call_op_passes_every_kind_of_argument(monkeypatch, args, expected):
    """Each shape `_call` builds (constants built in, slots read in place) calls the instruction alike."""
    seen = []
    made = {"const": lower._const(7), "slot": lower._slot(F_SELF),
            "call": lower.Value(lambda st, fr: fr[F_LOCALS] * 10)}
    op = lower._call(lambda st, *values: seen.append((st, values)), *(made[a] for a in args))
    state, frame = object(), [-1, 0, 2, -1, True, False, 4]
    assert op(state, frame, 5) == 6
    assert seen == [(state, expected)]


@pytest.mark.parametrize("text,expected", [
    ("hand(self) == 3", True),            # a slot, read in place
    ("hand(next) == 5", True),            # next, one call
    ("hand(previous) == 6", True),        # any other player expression
    ("hand(next) == 3", False),
])
def test_hand_size_reads_the_right_seat(text, expected):
    game = classic_game(True)
    fn = compile_condition(game, text).fn
    state = game.new_game(3, seed=1)
    state.hands[0], state.hands[1], state.hands[2] = state.hands[0][:3], state.hands[1][:5], state.hands[2][:6]
    assert fn(state, [-1, 0, 0, -1, True, False]) is expected


@pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">="])
@pytest.mark.parametrize("who,seat", [("self", 0), ("next", 1), ("previous", 2)])
def test_a_hand_size_compared_with_a_constant_agrees_with_the_plain_comparison(op, who, seat):
    """`hand(self|next) OP c` is one fused closure; every operator and constant gives what Python's does."""
    import operator
    compare = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
               ">": operator.gt, ">=": operator.ge}[op]
    game = classic_game(True, fast=True)                 # the fused form is the fast mode's
    state = game.new_game(3, seed=1)
    state.hands[0], state.hands[1], state.hands[2] = state.hands[0][:3], state.hands[1][:5], state.hands[2][:6]
    frame = game.seat_frames[0]                 # conditions run on the shared, read-only seat frames
    for c in range(8):
        fn = compile_condition(game, f"hand({who}) {op} {c}").fn
        assert ("_compare_hand_size" in fn.__qualname__) is (who != "previous")
        assert fn(state, frame) is compare(len(state.hands[seat]), c)


def test_hand_of_next_is_zero_when_nobody_else_is_in_play():
    game = classic_game(True)
    state = game.new_game(3, seed=1)
    state.eliminated[1] = state.eliminated[2] = True
    assert state.next_of(0) == -1
    for text, expected in (("hand(next) == 0", True), ("hand(next) < 1", True), ("hand(next) > 0", False)):
        fn = compile_condition(game, text).fn
        assert fn(state, game.seat_frames[0]) is expected


@pytest.mark.parametrize("direction", [1, -1])
def test_hand_of_next_skips_a_neighbour_who_is_out(direction):
    """The fused `hand(next)` reads the neighbour in place; past an eliminated or empty-handed one it asks next_of."""
    game = classic_game(True)
    state = game.new_game(4, seed=1)
    state.direction = direction
    state.hands = [state.hands[0][:3], state.hands[1][:5], state.hands[2][:6], state.hands[3][:2]]
    fn = compile_condition(game, "hand(next) == 6").fn
    neighbour, beyond = (1, 2) if direction == 1 else (3, 2)
    assert fn(state, game.seat_frames[0]) is (len(state.hands[neighbour]) == 6)
    for leave in ("eliminated", "empty"):
        if leave == "eliminated":
            state.eliminated[neighbour] = True
        else:
            state.eliminated[neighbour], state.hands[neighbour] = False, []
        assert state.next_of(0) == beyond
        assert fn(state, game.seat_frames[0]) is True                  # seat 2 holds 6


@pytest.mark.parametrize("text,guard", [
    ("if hand(self) > 2:\n    next draws 1\n    skip next\n", "hand"),    # the whole effect under one if
    ("if rule.two_player_reverse_is_skip:\n    next draws 1\n", "false"),  # the ruling is off: nothing to do
    ("if hand(self) > 2:\n    next draws 1\nelse:\n    skip next\n", None),
    ("if hand(self) > 2:\n    next draws 1\nelif hand(self) > 1:\n    skip next\n", None),
    ("skip next\nif hand(self) > 2:\n    next draws 1\n", None),
    ("if hand(self) > 2:\n    next draws 1\nskip next\n", None),
    ("next draws 1\n", None),
])
def test_guard_is_the_test_without_which_the_effect_does_nothing(text, guard):
    game = classic_game(False)
    _, code = compile_effect(game, text)
    found = code.guard
    state = game.new_game(3, seed=1)
    if guard is None:
        assert found is None
    elif guard == "false":
        assert found(state, game.seat_frames[0]) is False
    else:
        dealt = state.hands[0]
        for size in (1, 2, 3, 5):
            state.hands[0] = dealt[:size]
            assert found(state, game.seat_frames[0]) is (size > 2)
