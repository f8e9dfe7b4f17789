"""`unodsl new NAME`: start a variant (or a house rule) file that checks clean, with the schema line and comments.

Like `cargo new`: the file works as written (`unodsl check` says no problems, `unodsl play` plays it)
and its comments say what to change next.
"""

from __future__ import annotations

import os
import re
import sys

import click

from .files import refuse_overwrite
from .shared import write_or_exit

_VARIANT = """\
# yaml-language-server: $schema={schema}
# {title}: {base_words} with your changes. Check it with `unodsl check {file}`, play it with
# `unodsl play {file}`; docs/language.md lists every key, docs/tutorial.md walks through one.
unodsl: 1
name: {title_yaml}
description: {description}
extends: {base}

# House rules to switch on, by name (`unodsl list` shows them) or by path:
# include: [stacking-mattel, jump-in]

# Keys you write replace the inherited ones; maps merge key by key. For example:
# deal:
#   hand_size: 8
# uno:
#   penalty: 4

# Every edge case your table argues about, named, with its value; effects read it as rule.NAME:
# rulings:
#   swap_only_with_bigger_hands:
#     value: false
#     summary: When true, a swap only takes a hand bigger than yours.
"""

_HOUSE_RULE = """\
# yaml-language-server: $schema={schema}
# {title}: a house rule that any variant can switch on with `include: [{file}]`.
# `unodsl check {file}` checks it on {check_with} (check_with below); docs/language.md, section 5.
unodsl: 1
name: {title_yaml}
house_rule:
  id: {rule_id}
  summary: What this house rule changes, in one sentence.
  check_with: {check_with}
  # Rules it cannot be combined with without a ruling that says how (E330 asks for it):
  # conflicts:
  #   - with: stacking
  #     ruling: {rule_id}_during_stack
  #     why: Does this apply while a draw stack is pending?

# What the rule changes, as in a variant. For example, a bigger UNO penalty:
uno:
  penalty: 4
"""


@click.command(name="new")
@click.argument("name")
@click.option("--extends", "base", default="classic", show_default=True, metavar="VARIANT",
              help="The variant it builds on: a shipped name or a file.")
@click.option("--house-rule", is_flag=True, help="Write a house rule (for other variants' include:) instead.")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def new_command(name: str, base: str, house_rule: bool, force: bool) -> None:
    """Write NAME.yaml: a variant that extends classic (or --extends VARIANT), or a house rule.

    The file checks clean as written; its comments show what to change.
    """
    path = name if name.endswith((".yaml", ".yml")) else name + ".yaml"
    stem = os.path.splitext(os.path.basename(path))[0]
    words = re.sub(r"[-_]+", " ", stem).strip()
    if not words or not re.search(r"[A-Za-z0-9]", words):
        raise click.BadParameter(f"'{name}' does not make a file name", param_hint="'NAME'")
    refuse_overwrite(path, force)
    title = words[0].upper() + words[1:]
    from ..check import check_file, resolve
    from ..diagnostics import DiagnosticError
    try:
        base_file = resolve(base)
    except DiagnosticError as err:
        raise click.BadParameter(err.diagnostics[0].message, param_hint="'--extends'") from None
    if not os.path.isfile(base_file):
        raise click.BadParameter(f"'{base}' is not a file or a shipped variant", param_hint="'--extends'")
    from ..source import catalog
    shipped = catalog.is_name(base) and not os.path.lexists(base)
    # A path is written relative to the new file's folder, as extends: reads it.
    ref = base if shipped else os.path.relpath(os.path.abspath(base_file), os.path.dirname(os.path.abspath(path)))
    fields = {
        "schema": _schema_ref(path),
        "title": title,
        "title_yaml": _yaml_text(title),
        "file": os.path.basename(path),
        "base": _yaml_text(ref),
        "base_words": _title_of(base_file),
        "rule_id": _snake(stem),
        "check_with": _yaml_text(ref),
    }
    fields["description"] = _yaml_text(f"{fields['base_words']} with our house rules.")
    text = (_HOUSE_RULE if house_rule else _VARIANT).format(**fields)
    write_or_exit(path, text, force, "the file", "it was written", "the new text")
    problems = check_file(path).diagnostics
    if problems:       # a base with problems of its own: say so, the file is written all the same
        click.echo(f"unodsl: {path} was written, but {base} has problems; run 'unodsl check {path}'", err=True)
        sys.exit(1)
    kind = "house rule" if house_rule else "variant"
    click.echo(f"wrote {path}: a {kind} that checks clean; next: edit it, then 'unodsl check {path}'", err=True)


def _schema_ref(path: str) -> str:
    """The JSON Schema for the `$schema=` line: relative to the new file when both share a project, else absolute."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))         # unodsl/
    clone = os.path.join(os.path.dirname(package), "schemas", "variant.schema.json")   # a clone's top-level copy
    schema = clone if os.path.isfile(clone) else os.path.join(package, "source", "schemas", "variant.schema.json")
    folder = os.path.dirname(os.path.abspath(path))
    common = os.path.commonpath([schema, folder])
    if common not in (os.sep, "") and os.path.dirname(common) != os.sep:
        return os.path.relpath(schema, folder)
    return schema


def _title_of(path: str) -> str:
    """The `name:` of the variant file at `path` (its file name when it has none)."""
    import yaml
    try:
        with open(path, encoding="utf-8") as handle:
            data = yaml.safe_load(handle)
        name = data.get("name") if isinstance(data, dict) else None
    except (OSError, yaml.YAMLError, UnicodeDecodeError):
        name = None
    return " ".join(str(name).split()) if name else os.path.basename(path)


def _snake(stem: str) -> str:
    word = re.sub(r"[^a-z0-9]+", "_", stem.lower()).strip("_")
    return word if word and word[0].isalpha() else "rule_" + word


def _yaml_text(text: str) -> str:
    """`text` as a YAML scalar: plain when it reads back as itself, else double-quoted."""
    import json

    import yaml
    try:
        if re.fullmatch(r"[A-Za-z0-9./][A-Za-z0-9 ._/'-]*", text) and yaml.safe_load(text) == text:
            return text
    except yaml.YAMLError:
        pass
    return json.dumps(text)
