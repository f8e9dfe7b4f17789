"""The schema stage: the JSON Schemas themselves, and E2xx diagnostics pinned by message and position."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from unodsl.diagnostics import Diagnostic
from unodsl.source.schema import load_schema, validate_tree
from unodsl.source.yaml_tree import Node, load_text

REPO = Path(__file__).resolve().parent.parent
SCHEMAS = ("variant", "scenarios")

CLASSIC = """\
unodsl: 1
name: Classic UNO
description: The 108-card Mattel game.
version: "2024.1"
sources: [Mattel rule sheet]
players: {min: 2, max: 10}
colors: [red, yellow, green, blue]
deck: {total: 108}
cards:
  number:
    kind: number
    numbers: {"0": 1, "1-9": 2}
    points: face
  skip: {kind: action, per_color: 2, points: 20, on_play: skip next}
  reverse: {kind: action, per_color: 2, points: 20, on_play: reverse, last_card: resolve}
  draw_two: {kind: action, per_color: 2, points: 20, draw: 2, on_play: "next draws 2; skip next"}
  wild: {kind: wild, wild: true, count: 4, points: 50, on_play: choose color}
  wild_draw_four:
    kind: wild
    wild: true
    count: 4
    points: 50
    draw: 4
    restriction: not self holds color current
    restriction_check: challenge
    on_play: choose color
    on_start: return and flip again
    text: Choose the color; the next player draws four.
  blank: null
turn: {no_playable: draw_one, may_draw_if: true, drawn_card: optional, lock_allows_wild: false}
deal: {hand_size: 7, dealer: high_card, on_deal: nothing}
start: {default: nothing}
uno: {enabled: true, penalty: 2, partner_may_call: false}
stacking: {enabled: false, answer: none, cards: [draw_two], challenge: false}
jump_in: {enabled: false, wilds: false}
events: {player_out: nothing, after_draw: nothing}
round: {ends_when: first_out, max_turns: 3000, stall: fewest_points}
scoring: {mode: winner_collects, target: 500, by: player}
rulings:
  draw_four_on_last_card: {value: true, choices: [true, false], section: "1.12", summary: It still counts, tag: A}
"""

HOUSE_RULE = """\
unodsl: 1
name: Stacking
house_rule:
  id: stacking
  summary: Draw cards may be stacked.
  check_with: ../classic.yaml
  conflicts:
    - {with: jump_in, ruling: jump_in_on_stack, why: May a player jump in on a pending stack?}
teams: {size: 2, seating: alternate}
players: {allowed: [4, 6]}
stacking: {enabled: true, answer: same_or_higher}
"""

SCENARIOS = """\
variant: ../classic.yaml
scenarios:
  - name: a draw two skips the next player
    rule: "1.4"
    players: 3
    teams: false
    given:
      hands: [[red_draw_two, blue_1], [green_3], [yellow_4]]
      top: red_5
      discard: [green_5]
      color: red
      turn: 0
      direction: 1
      draw_pile: [red_1, red_2]
      dealer: 2
      scores: [0, 0, 0]
      rulings: {draw_four_on_last_card: false}
      uno_called: [1]
    actions: [play red_draw_two, {by: 1, do: catch 0}]
    expect:
      hands: [[blue_1], [green_3, red_1, red_2], [yellow_4]]
      hand_sizes: [1, 3, 1]
      turn: 2
      color: red
      direction: 1
      top: red_draw_two
      scores: [0, 0, 0]
      winner: null
      over: false
      refused: play blue_1
      reason: not your turn
      draw_pile_size: 0
      discard_size: 3
      legal: [draw]
      not_legal: [pass]
"""


def check(text: str, schema: str = "variant", path: str = "v.yaml") -> list[str]:
    """Load YAML text and return its schema diagnostics as "line:col: CODE message" strings."""
    root, diags = load_text(textwrap.dedent(text), path)
    assert root is not None and not diags, diags
    return [f"{d.line}:{d.column}: {d.code} {d.message}" for d in validate_tree(root, schema)]


def walk(schema, where="#"):
    """Yield (pointer, subschema) for every subschema of a schema document."""
    if isinstance(schema, dict):
        yield where, schema
        for key, value in schema.items():
            if key in ("properties", "$defs", "patternProperties"):
                for name, sub in value.items():
                    yield from walk(sub, f"{where}/{key}/{name}")
            elif key in ("items", "additionalProperties", "propertyNames", "not"):
                yield from walk(value, f"{where}/{key}")
            elif key in ("anyOf", "oneOf", "allOf"):
                for index, sub in enumerate(value):
                    yield from walk(sub, f"{where}/{key}/{index}")


# ---------------------------------------------------------------------------
# The schemas themselves


@pytest.mark.parametrize("name", SCHEMAS)
def test_schema_is_valid_draft_2020_12(name):
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://unodsl.dev/schemas/{name}.schema.json"
    assert schema["title"] and schema["description"]


@pytest.mark.parametrize("name", SCHEMAS)
def test_every_property_has_a_description(name):
    missing = [f"{where}/properties/{prop}" for where, sub in walk(load_schema(name))
               for prop, spec in sub.get("properties", {}).items() if not spec.get("description")]
    missing += [where for where, sub in walk(load_schema(name))
                if re.search(r"/(\$defs|items|additionalProperties|propertyNames)/?[^/]*$", where)
                and isinstance(sub, dict) and not sub.get("description")]
    assert missing == []


@pytest.mark.parametrize("name", SCHEMAS)
def test_every_object_is_closed(name):
    open_objects = []
    for where, sub in walk(load_schema(name)):
        types = sub.get("type", [])
        if "object" not in (types if isinstance(types, list) else [types]):
            continue
        closed = sub.get("additionalProperties") is False
        free_map = "propertyNames" in sub and isinstance(sub.get("additionalProperties"), dict)
        if not (closed or free_map):
            open_objects.append(where)
    assert open_objects == []


def test_load_schema_reads_the_repository_copy_and_caches_it():
    assert load_schema("variant") is load_schema("variant")
    assert (REPO / "schemas" / "variant.schema.json").is_file()
    with pytest.raises(FileNotFoundError):
        load_schema("no_such_schema")
    with pytest.raises(ValueError):
        load_schema("../pyproject")


def test_schema_describes_every_key_the_model_reads():
    """Keys read by the model's builder (build.py, cards.py) and compose.py must all be properties
    somewhere in the variant schema."""
    names = {prop for _, sub in walk(load_schema("variant")) for prop in sub.get("properties", {})}
    source = "".join((REPO / "unodsl" / f).read_text()
                     for f in ("model/build.py", "model/cards.py", "source/compose.py"))
    read = set(re.findall(r'(?:get|scalar|text|strings|scalar_list)\([^,()]*, *"([a-z_]+)"', source))
    read |= set(re.findall(r'value\.get\("([a-z_]+)"\)', source))
    assert read and read - names == set()


# ---------------------------------------------------------------------------
# Valid files


def test_full_classic_variant_is_clean():
    assert check(CLASSIC) == []


def test_house_rule_file_is_clean():
    assert check(HOUSE_RULE) == []


def test_full_scenario_file_is_clean():
    assert check(SCENARIOS, "scenarios") == []


SHIPPED = sorted(p for p in (REPO / "variants").rglob("*.yaml") if "invalid" not in p.parts)


@pytest.mark.parametrize("path", SHIPPED, ids=[str(p.relative_to(REPO)) for p in SHIPPED])
def test_shipped_files_are_schema_clean(path):
    root, diags = load_text(path.read_text(encoding="utf-8"), str(path))
    assert root is not None and not diags
    is_scenarios = root.get("variant") is not None or root.get("scenarios") is not None
    assert [d.header() for d in validate_tree(root, "scenarios" if is_scenarios else "variant")] == []


# ---------------------------------------------------------------------------
# One test per code, message and position pinned


def test_e201_unknown_key_at_the_key_with_did_you_mean():
    text = """\
    unodsl: 1
    name: x
    cards:
      draw_two:
        per_colour: 2
    """
    root, _ = load_text(textwrap.dedent(text), "v.yaml")
    [diag] = validate_tree(root)
    assert diag == Diagnostic("v.yaml", 5, 5, "E201",
                              "unknown key 'per_colour' in card 'draw_two' (did you mean 'per_color'?)",
                              end_line=5, end_column=15)


def test_e201_at_top_level_and_in_sections():
    assert check("unodsl: 1\nname: x\ncolours: [red]\nplayers: {min: 2, mx: 4}\n") == [
        "3:1: E201 unknown key 'colours' at the top level (did you mean 'colors'?)",
        "4:19: E201 unknown key 'mx' in 'players' (did you mean 'max'?)",
    ]


def test_e201_without_a_close_match_has_no_suggestion():
    assert check("unodsl: 1\nname: x\nzzzzzz: 1\n") == ["3:1: E201 unknown key 'zzzzzz' at the top level"]


def test_e202_wrong_type():
    assert check("unodsl: 1\nname: x\nplayers:\n  min: two\n") == ["4:8: E202 expected integer, got string 'two'"]


def test_e202_names_yaml_kinds_and_every_allowed_type():
    assert check("unodsl: 1\nname: x\nplayers: [2, 4]\ncards:\n  skip: 5\nturn: {may_draw_if: 3}\n") == [
        "3:10: E202 expected mapping, got a list",
        "5:9: E202 expected mapping or null, got integer 5",
        "6:21: E202 expected string or boolean, got integer 3",
    ]


def test_e202_for_points_lists_the_alternatives():
    assert check("unodsl: 1\nname: x\ncards:\n  skip: {per_color: 2, points: [1]}\n") == [
        "4:32: E202 expected integer or 'face', got a list",
    ]


def test_e202_wins_over_e203_for_the_same_value():
    assert check("unodsl: 1\nname: x\nturn: {no_playable: 5}\n") == ["3:21: E202 expected string, got integer 5"]


def test_e202_long_strings_are_cut():
    [message] = check(f"unodsl: 1\nname: x\ndeck: {{total: {'x' * 200}}}\n")
    assert message == "3:15: E202 expected integer or null, got string '" + "x" * 40 + "...'"


def test_e203_enum_lists_values_and_suggests():
    assert check("unodsl: 1\nname: x\nturn:\n  no_playable: draw_until\n") == [
        "4:16: E203 'draw_until' is not one of draw_one, draw_until_playable "
        "(did you mean 'draw_until_playable'?)",
    ]


def test_e203_const_and_face():
    assert check("unodsl: 2\nname: x\ncards:\n  skip: {per_color: 2, points: fac}\n") == [
        "1:9: E203 expected 1, got 2",
        "4:32: E203 expected integer or 'face', got string 'fac' (did you mean 'face'?)",
    ]


def test_e204_number_out_of_range():
    assert check("unodsl: 1\nname: x\nplayers:\n  min: 1\n  max: 101\ncards:\n  skip: {per_color: 10001}\n") == [
        "4:8: E204 1 is outside 2..100",
        "5:8: E204 101 is outside 2..100",
        "7:21: E204 10001 is outside 0..10000",
    ]


def test_e204_inside_points_anyof():
    assert check("unodsl: 1\nname: x\ncards:\n  skip: {per_color: 2, points: 20000}\n") == [
        "4:32: E204 20000 is outside 0..10000",
    ]


def test_e205_missing_required_at_top_level_points_at_the_map():
    assert check("unodsl: 1\ncolors: [red]\n") == ["1:1: E205 missing required key 'name' at the top level"]


def test_e205_missing_required_in_a_ruling_points_at_its_key():
    assert check("unodsl: 1\nname: x\nrulings:\n  last_card_wins:\n    section: '5.5'\n") == [
        "4:3: E205 missing required key 'value' in ruling 'last_card_wins'",
    ]


def test_e206_snake_case_values_and_keys():
    assert check("unodsl: 1\nname: x\ncolors: [red, Blue]\ncards:\n  DrawTwo: {per_color: 2}\n") == [
        "3:15: E206 'Blue' must be snake_case (a lowercase letter, then lowercase letters, digits or _)",
        "5:3: E206 card type id 'DrawTwo' must be snake_case (a lowercase letter, then lowercase letters, "
        "digits or _)",
    ]


def test_e206_number_range_key():
    assert check('unodsl: 1\nname: x\ncards:\n  number:\n    numbers: {"1..9": 2}\n') == [
        "5:15: E206 number key '1..9' is not a number or a range like 1-9",
    ]


def test_e207_duplicates_and_sizes():
    assert check("unodsl: 1\nname: x\ncolors: [red, blue, red]\nplayers: {allowed: []}\n") == [
        "3:21: E207 'red' is listed twice",
        "4:20: E207 the list needs at least 1 item",
    ]


def test_e207_too_many_colors():
    colors = ", ".join(f"c{i}" for i in range(17))
    assert check(f"unodsl: 1\nname: x\ncolors: [{colors}]\n") == [
        "3:9: E207 the list has 17 items, at most 16 are allowed",
    ]


def test_null_card_removes_an_inherited_type():
    assert check("unodsl: 1\nname: x\ncards:\n  skip: null\n  reverse:\n") == []


def test_diagnostics_are_sorted_and_one_per_problem():
    text = "unodsl: 1\nname: x\nzz: 1\nplayers: {min: 0, max: x}\naa: 2\n"
    assert check(text) == [
        "3:1: E201 unknown key 'zz' at the top level",
        "4:16: E204 0 is outside 2..100",
        "4:24: E202 expected integer, got string 'x'",
        "5:1: E201 unknown key 'aa' at the top level",
    ]


# ---------------------------------------------------------------------------
# Scenario files


def test_scenario_errors_name_the_scenario():
    text = """\
    variant: classic.yaml
    scenarios:
      - name: skip
        given: {colour: red, direction: 2}
        actions: [draw, {by: 1}, {by: 1, do: pass, x: 1}]
        expect: {turn: -1, winner: null}
      - rule: "1.2"
    """
    assert check(text, "scenarios") == [
        "4:13: E201 unknown key 'colour' in 'given' of scenario 'skip' (did you mean 'color'?)",
        "4:37: E203 2 is not one of 1, -1",
        "5:21: E205 missing required key 'do' in 'actions[1]' of scenario 'skip'",
        "5:48: E201 unknown key 'x' in 'actions[2]' of scenario 'skip'",
        "6:20: E204 -1 is outside 0..99",
        "7:5: E205 missing required key 'name' in scenario 2",
    ]


def test_scenario_file_needs_its_variant():
    assert check("scenarios: []\n", "scenarios") == ["1:1: E205 missing required key 'variant' at the top level"]


# ---------------------------------------------------------------------------
# Robustness


@pytest.mark.parametrize("text", [
    "a: 1\n",
    "unodsl: 1\nname: x\ncards: [1, 2]\n",
    "unodsl: 1\nname: x\ncards: {a: [[[]]], b: {numbers: [1]}, c: {numbers: {'': x}}}\n",
    "unodsl: 1\nname: x\nrulings: {a: 1, b: {value: {x: 1}, choices: [[1], [1]]}, C: {value: .nan}}\n",
    "unodsl: 1\nname: x\nplayers: {allowed: [2, 2, true, 2.5]}\ndeck: {total: .inf}\n",
    "unodsl: 1\nname: x\nhouse_rule: {conflicts: [1, {}, {with: X}]}\n",
    "? [a, b]\n: 1\nunodsl: 1\nname: x\n",
    "unodsl: &a 1\nname: *a\ncolors: [*a, *a]\n",
])
def test_never_raises(text):
    root, _ = load_text(text, "v.yaml")
    for name in SCHEMAS:
        diags = validate_tree(root, name)
        assert all(isinstance(d, Diagnostic) and d.code.startswith("E2") for d in diags)
        assert diags == sorted(diags, key=lambda d: (d.path, d.line, d.column, d.code, d.message))
        assert len(set(diags)) == len(diags)
        assert all(d.code != "E207" or "schema check failed" not in d.message for d in diags)


def test_hand_built_and_odd_trees_never_raise():
    scalar = Node("scalar", "text", 1, 1, 1, 5, "v.yaml")
    assert [d.code for d in validate_tree(scalar)] == ["E202"]
    assert validate_tree(None) == []
    odd = Node("map", {1: Node("scalar", object(), 1, 4, 1, 5, "v.yaml", 1, 1)}, 1, 1, 1, 5, "v.yaml")
    assert {d.code for d in validate_tree(odd)} <= {"E201", "E202", "E205", "E207"}
