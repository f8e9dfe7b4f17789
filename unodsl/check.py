"""The checking pipeline: every stage from bytes to compiled effects, all problems reported.

load -> compose (extends/include) -> schema -> typed variant -> effects parsed -> compiled -> semantic checks.
Each stage returns values and diagnostics; only the CLI prints.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace

from .source.compose import compose_file
from .diagnostics import Diagnostic, DiagnosticError
from .fixes import attach_fixes
from .effects.parse import with_syntax
from .engine import ENGINE_RULINGS, Game
from .model.build import build_variant
from .model.variant import Variant


# Codes of the stages that read one file or one effect text at a time: YAML, the schema,
# composition (E32x) and effect syntax.
_ONE_FILE_STAGES = ("E1", "E2", "E32", "E4")


# YAML problems after which the tree is whole all the same (E117: the value was read as the text it was
# meant to be), so the later stages still check the file.
_READ_ON = ("E117",)


# Model errors after which the typed variant holds values the engine cannot build a game
# from (card counts, a deck over the limit, an empty player range, teams that do not fit
# every table), so the engine is not asked to.
_ENGINE_CANNOT_TAKE = ("E303", "E308", "E310", "E311")


@dataclass
class CheckResult:
    """Everything `check` learned about one file."""

    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)
    variant: Variant | None = None
    game: Game | None = None
    # Each file read -> the link of the checked file through which it was reached (None: the file itself).
    links: dict = field(default_factory=dict)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


def check_file(path: str, root: str | None = None, rulings: dict | None = None,
               fast: bool | None = None, texts: dict[str, str] | None = None) -> CheckResult:
    """Run every stage on `path` and collect all diagnostics, sorted by position (`fast`: see Game).

    `texts` (path -> text) is read in place of those files on disk: an editor's unsaved buffers.
    """
    comp = compose_file(path, root, texts)
    result = CheckResult(path, list(comp.diagnostics), comp.texts, links=comp.links)
    scenario_file = _scenario_file_mark(comp.root)
    if scenario_file is not None:
        # Every schema error would only say that a scenario file is not a variant.
        result.diagnostics = [d for d in result.diagnostics if not d.code.startswith("E2")]
        result.diagnostics.append(Diagnostic(scenario_file.path, scenario_file.key_line or scenario_file.line,
                                             scenario_file.key_column or scenario_file.column, "E208",
                                             f"this is a scenario file: use 'unodsl test {path}'"))
        return result
    if comp.root is not None and not any(d.code.startswith("E1") and d.code not in _READ_ON for d in comp.diagnostics):
        variant, diags = build_variant(comp.root, path, comp.house_rules, comp.links)
        result.diagnostics.extend(diags)
        result.variant = variant
        if variant is not None and variant.cards and not any(d.code in _ENGINE_CANNOT_TAKE for d in diags):
            try:
                variant = result.variant = with_syntax(variant)
                game = Game(variant, rulings, fast=fast)
            except Exception as err:           # a compiler bug must not hide the other diagnostics
                result.diagnostics.append(Diagnostic(path, 1, 1, "E599", f"internal error while compiling: {err!r}"))
            else:
                result.game = game
                result.diagnostics.extend(game.diagnostics)
                result.diagnostics.extend(_semantic_checks(variant, game, comp.links))
    result.diagnostics = _at_removals(result.diagnostics, comp, path)
    if comp.incomplete:
        # A linked file could not be loaded: whatever needs the whole variant (references,
        # the deck, effect meaning, the semantic checks) would only report what that file
        # was to provide. What looks at one file or one effect text at a time still stands.
        result.diagnostics = [d for d in result.diagnostics if d.code.startswith(_ONE_FILE_STAGES)]
    # set() keeps one of two equal diagnostics; a fix given by a stage must survive it.
    fixed = {d: d.fix for d in result.diagnostics if d.fix is not None}
    unique = [replace(d, fix=fixed.get(d)) for d in set(result.diagnostics)]
    result.diagnostics = sorted(attach_fixes(unique, result.texts), key=lambda d: (d.sort_key(), d.message))
    return result


def _scenario_file_mark(root) -> object | None:
    """The `variant:` node of a scenario file (a `variant:` and `scenarios:`, no variant keys), else None."""
    if root is None or root.kind != "map":
        return None
    keys = root.value
    if "variant" in keys and "scenarios" in keys and not {"unodsl", "cards", "house_rule"} & set(keys):
        return keys["variant"]
    return None


def _at_removals(diagnostics: list[Diagnostic], comp, path: str) -> list[Diagnostic]:
    """An inherited effect that reads a ruling the checked file removed (E502 in the other file) is
    reported at the removal, in the checked file: that is the line to change."""
    removed = {keys[1]: node for keys, node in comp.removed
               if len(keys) == 2 and keys[0] == "rulings" and node.path == path}
    out = []
    for d in diagnostics:
        name = d.message.removeprefix("unknown ruling '").split("'")[0] if d.code == "E502" else None
        if name in removed and d.path != path:
            at = removed[name]
            d = Diagnostic(at.path, at.line, at.column, "E502",
                           f"ruling '{name}' is removed here, but an inherited effect reads it "
                           f"({os.path.basename(d.path)}:{d.line}:{d.column}): keep the ruling, or replace "
                           f"that effect too")
        out.append(d)
    return out


def _semantic_checks(variant: Variant, game: Game, links: dict | None = None) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    # Which rulings the effects read is only known when every effect compiled: a broken
    # effect (most likely the one that reads the ruling) records nothing after its error.
    usage_known = not any(d.severity == "error" for d in game.diagnostics)
    for name, ruling in variant.rulings.items():
        if usage_known and name not in game.rulings_used and name not in ENGINE_RULINGS and ruling.node is not None:
            at = links.get(ruling.node.path) if links else None
            if at is None:
                out.append(Diagnostic(ruling.node.path, ruling.node.line, ruling.node.column, "W301",
                                      f"ruling '{name}' is not used by any effect or engine rule", "warning"))
            else:       # inherited: say so where the user's file brings it in, and how to drop it
                out.append(Diagnostic(at.path, at.line, at.column, "W301",
                                      f"ruling '{name}', inherited from {os.path.basename(ruling.node.path)} "
                                      f"(line {ruling.node.line}), is no longer used by any effect or engine "
                                      f"rule: remove it with 'rulings: {{{name}: null}}'", "warning"))
    on = set(variant.house_rules)
    if variant.stacking != "none":
        on.add("stacking")
    if variant.jump_in:
        on.add("jump_in")
    settled: set[tuple[frozenset, str]] = set()
    for rule_id, conflicts in variant.conflicts.items():
        for conflict in conflicts:
            if conflict.other not in on or conflict.ruling in variant.rulings:
                continue
            pair = (frozenset((rule_id, conflict.other)), conflict.ruling)
            if pair in settled:
                continue                      # both rules declare the same interaction: say it once
            settled.add(pair)
            path, line, column = _conflict_position(variant, rule_id, conflict)
            out.append(Diagnostic(path, line, column, "E330",
                                  f"house rules '{rule_id}' and '{conflict.other}' conflict: "
                                  f"set ruling '{conflict.ruling}' to say how they combine"))
    return out


def _conflict_position(variant: Variant, rule_id: str, conflict) -> tuple[str, int, int]:
    """Where an unsettled conflict is reported: in the checked file, where the user can settle it.

    That is the later of the links (extends, include, check_with) that brought the two
    house rules in, since that entry made the combination; when both rules are the checked
    file's own, the conflict's declaration.
    """
    links = [variant.house_rule_links.get(rule_id), variant.house_rule_links.get(conflict.other)]
    links = [link for link in links if link is not None]
    if links:
        link = max(links, key=lambda n: (n.line, n.column))
        return link.path, link.line, link.column
    node = conflict.node
    return (node.path, node.line, node.column) if node is not None else (variant.path, 1, 1)


def load(variant: str, root: str | None = None, rulings: dict | None = None, fast: bool | None = None,
         texts: dict[str, str] | None = None, *, include=()) -> Game:
    """Load and compile a variant: a shipped name (`"classic"`) or a file path; raises DiagnosticError
    listing every problem.

    `include` lays house rules (shipped names or paths) over it, as `include:` in a file would:
    `load("classic", include=["stacking-mattel"])`. `rulings` overrides ruling values; `root` is the
    folder that `extends`/`include` may not leave; `texts` (path -> text) is read in place of those
    files on disk. `fast=False` compiles the reference mode, every rule through its one general
    implementation (the default: the fast mode, unless the environment sets UNODSL_FAST=0).
    """
    path = resolve(variant)
    path, extra = with_includes(path, include, given=variant)
    if extra:
        texts = {**(texts or {}), **extra}
    result = check_file(path, root, rulings, fast, texts)
    if result.errors or result.game is None:
        raise DiagnosticError(result.errors or [Diagnostic(path, 1, 1, "E306", "the variant defines no cards")])
    return result.game


def resolve(variant: str) -> str:
    """The file a variant argument means: an existing path as given, else the shipped file it names.

    A value that is no existing path, has no `/` and no `.yaml` ending is a name; an unknown name
    raises DiagnosticError (E101) with the closest shipped name.
    """
    from .source import catalog
    variant = os.fspath(variant)
    if os.path.lexists(variant) or not catalog.is_name(variant):
        return variant
    found = catalog.path_of(variant)
    if found is None:
        raise DiagnosticError([Diagnostic(variant, 1, 1, "E101", catalog.unknown_message(variant))])
    return found


def with_includes(path: str, includes, given: str | None = None) -> tuple[str, dict[str, str] | None]:
    """The variant to check: `path` itself, or an unsaved file in the working folder that extends it
    and includes `includes`, with its text for check_file(texts=...).

    The file is never written. It sits in the working folder, so the house rules' paths are read
    as the user gave them, from there; the variant is named as `given` when that is a shipped name.
    """
    includes = [os.fspath(item) for item in ([includes] if isinstance(includes, str) else includes or ())]
    if not includes:
        return path, None
    import json
    from .source import catalog
    given = os.fspath(given) if given is not None else path
    ref = given if (not os.path.lexists(given) and catalog.is_name(given)) else os.path.abspath(path)
    virtual = os.path.join(os.getcwd(), f".unodsl-{os.path.basename(given)}+includes.yaml")
    text = (f"unodsl: 1\nname: {json.dumps(os.path.basename(given) + ' + ' + ', '.join(includes))}\n"
            f"extends: {json.dumps(ref)}\ninclude: {json.dumps(includes)}\n")
    return virtual, {virtual: text}


def variants() -> list:
    """Every shipped variant and house rule: `.name` (what `load` and `extends:` take), `.house_rule`,
    `.title`, `.summary` (one sentence) and `.path` (the file), variants first."""
    from .source.catalog import shipped
    return shipped()


_VALUE_KINDS = {bool: "true or false", int: "a whole number", str: "a string"}


def ruling_problem(variant: Variant, name: str, value) -> str | None:
    """Why `name: value` cannot override a ruling of `variant` (unknown, wrong type, not a choice), or None."""
    from .diagnostics import suggestion_suffix
    known = variant.rulings
    if name not in known and name not in ENGINE_RULINGS:
        return f"unknown ruling '{name}'" + suggestion_suffix(name, list(known))
    ruling = known.get(name)
    if ruling is None:
        return None
    if type(value) is not type(ruling.value) and ruling.value is not None:
        kind = _VALUE_KINDS.get(type(ruling.value), type(ruling.value).__name__)
        return f"ruling '{name}' takes {kind}, not {value!r}"
    if ruling.choices and value not in ruling.choices:
        return f"ruling '{name}' is one of {', '.join(map(str, ruling.choices))}, not {value!r}"
    return None

