"""The quick schema check must give jsonschema's verdict on every document.

`schema.validate_tree` skips jsonschema for documents the quick check accepts, so
a document it wrongly accepted would lose its E2xx diagnostics. These tests
compare the two verdicts on the shipped files, the invalid corpus and documents
mutated at random (hypothesis).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from unodsl.source.quickschema import QuickValidator
from unodsl.source.schema import _plain, load_schema, validate_tree
from unodsl.source.yaml_tree import load_file

REPO = Path(__file__).resolve().parent.parent
SCHEMAS = ("variant", "scenarios")
LONG = os.environ.get("UNODSL_FUZZ") == "long"


def _documents() -> list[tuple[str, str, object]]:
    """(schema name, file, plain document) for every YAML file we ship or test with."""
    files = sorted([*REPO.glob("variants/**/*.yaml"), *REPO.glob("tests/corpus/**/*.yaml"),
                    *REPO.glob("docs/examples/*.yaml"), *REPO.glob("benchmarks/*.yaml")])
    docs = []
    for file in files:
        root, _, _ = load_file(str(file))
        if root is not None:
            name = "scenarios" if "scenarios" in file.parts else "variant"
            docs.append((name, str(file.relative_to(REPO)), _plain(root)))
    return docs


DOCUMENTS = _documents()


def _jsonschema_valid(name: str, document) -> bool:
    return not any(Draft202012Validator(load_schema(name)).iter_errors(document))


@pytest.mark.parametrize("name", SCHEMAS)
def test_quick_check_knows_every_keyword_of_our_schemas(name):
    # Otherwise every file would go to jsonschema: correct, but the fast path would be gone.
    assert QuickValidator(load_schema(name)).usable


def test_unknown_keywords_and_remote_refs_make_it_unusable():
    assert not QuickValidator({"type": "object", "patternProperties": {}}).usable
    assert not QuickValidator({"$ref": "https://example.com/schema.json"}).usable
    assert not QuickValidator({"$ref": "#/$defs/missing", "$defs": {}}).usable
    assert QuickValidator({"$ref": "#/$defs/a", "$defs": {"a": {"type": "string"}}}).usable


@pytest.mark.parametrize("name,file,document", DOCUMENTS, ids=[d[1] for d in DOCUMENTS])
def test_same_verdict_as_jsonschema_on_every_file(name, file, document):
    assert QuickValidator(load_schema(name)).is_valid(document) == _jsonschema_valid(name, document)


def test_the_corpus_has_schema_errors_for_the_quick_check_to_find():
    verdicts = [QuickValidator(load_schema(n)).is_valid(d) for n, f, d in DOCUMENTS if "invalid" in f]
    assert verdicts.count(False) >= 10


@pytest.mark.parametrize("value,kind,expected", [
    (True, "integer", False), (1.0, "integer", True), (1.5, "integer", False), (True, "number", False),
    (None, "null", True), (0, "boolean", False), ("1", "integer", False),
])
def test_types_follow_json_not_python(value, kind, expected):
    assert QuickValidator({"type": kind}).is_valid(value) is expected
    assert _jsonschema_valid_schema({"type": kind}, value) is expected


@pytest.mark.parametrize("schema,value", [
    ({"enum": [1]}, True), ({"const": False}, 0), ({"uniqueItems": True}, [1, True]),
    ({"uniqueItems": True}, [1, 1.0]), ({"uniqueItems": True}, [0, False]), ({"uniqueItems": True}, ["a", "a"]),
    ({"uniqueItems": True}, [[1], [1]]), ({"uniqueItems": True}, [{"a": 1}, {"a": True}]), ({"pattern": "b"}, "abc"), ({"pattern": "^b"}, "abc"),
    ({"minLength": 2}, "é"), ({"exclusiveMaximum": 3}, 3), ({"items": {"type": "string"}}, []),
])
def test_edge_cases_agree_with_jsonschema(schema, value):
    assert QuickValidator(schema).is_valid(value) == _jsonschema_valid_schema(schema, value)


def _jsonschema_valid_schema(schema: dict, value) -> bool:
    return not any(Draft202012Validator(schema).iter_errors(value))


# ------------------------------------------------------------ random mutations

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 200), st.floats(allow_nan=False, width=32),
    st.sampled_from(["", "red", "wild", "draw_two", "Skip", "1-9", "5.5", "first_out", "x" * 70]),
    st.text(max_size=8),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["name", "count", "color", "on_play", "zz"]),
                                                 inner, max_size=3)), max_leaves=6)


def _paths(document, prefix=()):
    yield prefix
    if isinstance(document, dict):
        for key, value in document.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            yield from _paths(value, (*prefix, index))


def _replace(document, path, value):
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(document, dict):
        return {**document, head: _replace(document[head], rest, value)}
    return [_replace(item, rest, value) if i == head else item for i, item in enumerate(document)]


@st.composite
def mutated(draw):
    name, _, document = draw(st.sampled_from([d for d in DOCUMENTS if "invalid" not in d[1]]))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(_paths(document))))
        action = draw(st.sampled_from(["replace", "add", "drop"]))
        target = document
        for step in path:
            target = target[step]
        if action == "add" and isinstance(target, dict):
            key = draw(st.sampled_from([*target.keys(), "extra", "cards", "count", "wild"]))
            document = _replace(document, path, {**target, key: draw(VALUES)})
        elif action == "drop" and isinstance(target, (dict, list)) and target:
            if isinstance(target, dict):
                key = draw(st.sampled_from(list(target)))
                document = _replace(document, path, {k: v for k, v in target.items() if k != key})
            else:
                document = _replace(document, path, target[:-1])
        else:
            document = _replace(document, path, draw(VALUES))
    return name, document


@settings(max_examples=3000 if LONG else 300, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated())
def test_same_verdict_as_jsonschema_on_mutated_documents(case):
    name, document = case
    assert QuickValidator(load_schema(name)).is_valid(document) == _jsonschema_valid(name, document)


def test_a_valid_file_is_checked_without_jsonschema(tmp_path):
    # The point of the quick check: a clean variant never needs jsonschema's validator.
    import subprocess
    import sys
    code = ("import sys; from unodsl.check import check_file; "
            "r = check_file(sys.argv[1]); assert not r.errors, r.errors; "
            "print('jsonschema' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(REPO / "variants" / "classic.yaml")],
                         capture_output=True, text=True, check=True, cwd=tmp_path)
    assert out.stdout.strip() == "False"


def test_an_invalid_file_still_gets_jsonschema_diagnostics():
    root, _, _ = load_file(str(REPO / "variants" / "classic.yaml"))
    root.value["players"].value["min"].value = "two"
    diags = validate_tree(root)
    assert [d.code for d in diags] == ["E202"]
