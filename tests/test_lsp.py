"""`unodsl lsp` driven over stdio as an editor drives it: JSON-RPC frames to a real server process."""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from unodsl.check import check_file  # noqa: E402
from unodsl.effects import ast as A  # noqa: E402
from unodsl.effects.parse import parse  # noqa: E402
from unodsl.lsp.effect_docs import DOCS  # noqa: E402
from unodsl.model.variant import Text  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "corpus" / "invalid"
TIMEOUT = 120          # seconds any one answer may take on a loaded machine before the test fails


class Client:
    """A minimal LSP client: Content-Length frames over a subprocess's stdin and stdout."""

    def __init__(self, cwd: Path):
        env = {**os.environ, "PYTHONPATH": str(REPO), "UNODSL_NO_CACHE": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "unodsl.lsp"], cwd=cwd, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue = queue.Queue()
        self.stash: list[dict] = []
        self.next_id = 0
        self.stderr: list[bytes] = []
        self.readers = [threading.Thread(target=self._read, daemon=True),
                        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True)]
        for reader in self.readers:
            reader.start()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                header = out.readline()
                if not header:
                    self.messages.put(None)
                    return
                header = header.strip()
                if not header:
                    break
                name, _, value = header.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            self.messages.put(json.loads(out.read(length)))

    def send(self, message: dict) -> None:
        self.send_bytes(json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8"))

    def send_bytes(self, body: bytes) -> None:
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict | None) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict | None) -> dict:
        """Send a request and wait for its response (the whole message: `result` or `error`)."""
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == self.next_id and "method" not in m)

    def wait(self, matches) -> dict:
        """The first message (stashed or new) that `matches`; fails after TIMEOUT seconds of silence."""
        for message in self.stash:
            if matches(message):
                self.stash.remove(message)
                return message
        while True:
            try:
                message = self.messages.get(timeout=TIMEOUT)
            except queue.Empty:
                pytest.fail(f"no matching message from the server within {TIMEOUT} s; stderr: {self.log()}")
            if message is None:
                pytest.fail(f"the server closed its output; stderr: {self.log()}")
            if matches(message):
                return message
            self.stash.append(message)

    def diagnostics(self, uri: str, version: int | None = None) -> list[dict]:
        """The next diagnostics published for `uri` (for that document version, when given)."""
        message = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                            and m["params"]["uri"] == uri
                            and (version is None or m["params"].get("version") == version))
        return message["params"]["diagnostics"]

    def log(self) -> str:
        return b"".join(self.stderr).decode("utf-8", "replace")[-3000:]

    def open(self, path: Path, text: str, version: int = 1) -> str:
        uri = path.as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml",
                                                              "version": version, "text": text}})
        return uri

    def change(self, uri: str, text: str, version: int) -> None:
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": text}]})

    def completion(self, uri: str, line: int, character: int) -> list[str]:
        answer = self.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                          "position": {"line": line, "character": character}})
        result = answer["result"]
        items = result["items"] if isinstance(result, dict) else result
        return [item["label"] for item in items]

    def hover(self, uri: str, line: int, character: int) -> dict | None:
        answer = self.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                     "position": {"line": line, "character": character}})
        return answer["result"]

    def definition(self, uri: str, line: int, character: int) -> dict | None:
        answer = self.request("textDocument/definition", {"textDocument": {"uri": uri},
                                                          "position": {"line": line, "character": character}})
        return answer["result"]

    def close(self) -> int:
        """shutdown, then exit: the server's exit code."""
        assert self.request("shutdown", None).get("result", "missing") is None
        self.notify("exit", None)
        try:
            return self.proc.wait(timeout=TIMEOUT)
        finally:
            self.stop()

    def stop(self) -> None:
        """End the server if it still runs, and release its pipes once both readers saw them end."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=TIMEOUT)
        for reader in self.readers:
            reader.join(timeout=TIMEOUT)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            stream.close()


@pytest.fixture
def client(tmp_path):
    # Started elsewhere, the server works from the workspace folder it is given, as check run there.
    c = Client(tmp_path)
    answer = c.request("initialize", {"processId": os.getpid(), "rootUri": REPO.as_uri(), "capabilities": {}})
    assert answer["result"]["serverInfo"]["name"] == "unodsl"
    c.notify("initialized", {})
    yield c
    c.stop()


def _utf16(line: str, column: int) -> int:
    """The LSP character (UTF-16 units) of unodsl's 1-based column on `line`."""
    return len(line[: column - 1].encode("utf-16-le")) // 2


def _cli_check(path: Path) -> list[str]:
    """`unodsl check` as a user runs it: its "path:line:col: CODE message" lines."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "UNODSL_NO_CACHE": "1"}
    done = subprocess.run([sys.executable, "-m", "unodsl.cli", "check", str(path)], capture_output=True, text=True,
                          cwd=REPO, env=env, timeout=TIMEOUT)
    return done.stdout.splitlines()


def test_every_invalid_corpus_file_gets_the_diagnostics_of_check(client):
    files = sorted(CORPUS.glob("*.yaml"))
    assert len(files) > 40
    checked = 0
    for number, path in enumerate(files):
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            continue                           # an editor would not show these bytes as they are
        expected = check_file(str(path)).diagnostics
        assert expected, path
        uri = client.open(path, text, version=number + 1)
        got = client.diagnostics(uri, number + 1)
        lines = text.split("\n")
        want = []
        for d in expected:
            if Path(d.path).resolve() == path.resolve():
                want.append((d.code, d.line - 1, _utf16(lines[d.line - 1], d.column), d.message))
            else:                              # found in a linked file: shown at the link, named in the message
                want.append((d.code, None, None, f"{d.path}:{d.line}:{d.column}: {d.message}"))
        shown = [(g["code"], g["range"]["start"]["line"], g["range"]["start"]["character"], g["message"])
                 for g in got]
        assert [(c, m) for c, _, _, m in shown] == [(c, m) for c, _, _, m in want], path
        assert [s[1:3] for s, w in zip(shown, want) if w[1] is not None] == \
               [w[1:3] for w in want if w[1] is not None], path
        assert all(g["source"] == "unodsl" and g["severity"] == (1 if d.severity == "error" else 2)
                   for g, d in zip(got, expected)), path
        checked += 1
    assert checked > 40
    assert client.close() == 0


def test_unsaved_text_is_checked_as_check_checks_it_once_saved(client, tmp_path):
    path = tmp_path / "mine.yaml"
    saved = "unodsl: 1\nname: Mine\nextends: classic\n"
    path.write_text(saved)
    uri = client.open(path, saved)
    assert client.diagnostics(uri, 1) == []
    edited = saved + "deal: {hand_size: \"\U0001F600\", colour: 3}\n"
    client.change(uri, edited, 2)
    got = client.diagnostics(uri, 2)
    assert path.read_text() == saved                     # the server checked the buffer, not the file
    path.write_text(edited)
    cli = _cli_check(path)
    assert cli and len(cli) == len(got)
    line = edited.split("\n")[3]
    for shown, printed in zip(got, cli):
        where, code, message = printed.split(" ", 2)[0], printed.split(" ", 2)[1], printed.split(" ", 2)[2]
        _, row, column, _ = where.rsplit(":", 3)
        assert (shown["code"], shown["message"]) == (code, message)
        assert shown["range"]["start"] == {"line": int(row) - 1, "character": _utf16(line, int(column))}
    unknown = next(g for g in got if "colour" in g["message"])
    assert unknown["code"].startswith("E2")
    # The emoji is two UTF-16 units: the key starts 2 units after the quote, not 1.
    assert unknown["range"]["start"]["character"] == line.index("colour") + 1
    assert client.close() == 0


def test_a_problem_in_an_included_file_is_shown_at_the_include(client, tmp_path):
    (tmp_path / "pyproject.toml").write_text("")            # the folder is a project: its files may link
    broken = tmp_path / "broken-rule.yaml"
    broken.write_text("unodsl: 1\nname: Broken\ncards:\n  skip:\n    on_play: next drawz 2\n")
    main = tmp_path / "main.yaml"
    text = "unodsl: 1\nname: Main\nextends: classic\ninclude:\n  - broken-rule.yaml\n"
    main.write_text(text)
    uri = client.open(main, text)
    got = client.diagnostics(uri, 1)
    assert got, client.log()
    first = got[0]
    assert first["code"].startswith("E4")
    assert first["range"]["start"] == {"line": 4, "character": 4}
    assert first["message"].startswith(f"{broken}:5:")
    related = first["relatedInformation"][0]
    assert related["location"]["uri"] == broken.as_uri()
    assert related["location"]["range"]["start"]["line"] == 4
    # The included file open with unsaved edits: the including file is checked against those.
    client.open(broken, broken.read_text().replace("drawz", "draws"))
    client.diagnostics(broken.as_uri(), 1)
    client.change(uri, text + "\n", 2)
    assert client.diagnostics(uri, 2) == []
    assert client.close() == 0


def test_completion_offers_keys_names_and_effect_words(client, tmp_path):
    path = tmp_path / "mine.yaml"
    text = ("unodsl: 1\nname: Mine\nextends: \ninclude: [stacking-mattel, ]\n"
            "cards:\n  shout:\n    per_color: 1\n    on_play: |\n      if hand(next) > 1:\n"
            "          next \n    \n  yell:\n    count: 1\n    on_play: if self holds card \n"
            "rulings:\n  loud:\n    value: true\n"
            "de\n")
    # The card ids and rulings come from the last check that built the variant: the
    # file as it was before this edit half-typed it.
    uri = client.open(path, "unodsl: 1\nname: Mine\nextends: classic\nrulings:\n  loud: {value: true}\n")
    client.diagnostics(uri, 1)
    client.change(uri, text, 2)
    client.diagnostics(uri, 2)
    lines = text.split("\n")
    assert "classic" in client.completion(uri, 2, len("extends: "))
    included = client.completion(uri, 3, len("include: [stacking-mattel, "))
    assert included[0] in {"doubles", "draw-to-match", "force-play"} and "seven-o" in included
    assert included.index("seven-o") < included.index("classic")     # house rules first in include
    keys = client.completion(uri, 10, 4)
    assert {"on_start", "restriction", "points"} <= set(keys)
    assert "per_color" not in keys and "on_play" not in keys        # already given
    top = client.completion(uri, 17, 2)
    assert {"deal", "deck", "stacking"} <= set(top) and "cards" not in top and "name" not in top
    # Inside the effect block: what the grammar accepts next, and the variant's card ids.
    assert "wild_draw_four" in client.completion(uri, 13, len(lines[13]))      # from classic, via extends
    after_player = client.completion(uri, 9, len(lines[9]))
    assert "draws" in after_player and "skip" not in after_player
    nested = tmp_path / "flow.yaml"
    flow = "unodsl: 1\nname: F\nextends: classic\ncards:\n  shout: {per_color: 1, on_play: \"if rule.\"}\n" \
           "rulings:\n  loud: {value: true}\n"
    flow_uri = client.open(nested, flow)
    client.diagnostics(flow_uri, 1)
    assert "loud" in client.completion(flow_uri, 4, flow.split("\n")[4].index("rule.") + 5)
    assert client.close() == 0


def test_hover_shows_the_schema_description(client, tmp_path):
    path = tmp_path / "mine.yaml"
    text = "unodsl: 1\nname: Mine\nextends: classic\ncards:\n  shout:\n    on_play: skip next\n"
    uri = client.open(path, text)
    client.diagnostics(uri, 1)
    shown = client.hover(uri, 5, 6)
    assert "What happens when the card is played" in shown["contents"]["value"]
    assert shown["range"] == {"start": {"line": 5, "character": 4}, "end": {"line": 5, "character": 11}}
    assert "shipped variant `classic`" in client.hover(uri, 2, 10)["contents"]["value"]
    assert client.hover(uri, 1, 0) is not None and client.hover(uri, 3, 9) is None   # after `cards:`: no word
    assert client.close() == 0


EFFECTS = ("unodsl: 1\nname: Mine\nextends: classic\ninclude:\n  - extra.yaml\ndeck: {total: 112}\n"
           "cards:\n  shout:\n    per_color: 1\n    points: 20\n    draw: 2\n    on_play: |\n"
           "      if next holds card draw_two and rule.loud:\n        next draws 2\n"
           "    restriction: \"hand(self) > 1\"\n"
           "stacking:\n  answer: same_type\n  cards: [draw_two, shout]\n"
           "rulings:\n  loud: {value: true, summary: Shouting is allowed.}\n")


def _at(text: str, word: str, shift: int = 0) -> tuple[int, int]:
    """The LSP (line, character) of the first `word` in `text` (ASCII), `shift` characters in."""
    offset = text.index(word) + shift
    line = text.count("\n", 0, offset)
    return line, offset - (text.rindex("\n", 0, offset) + 1 if line else 0)


def _span(text: str, word: str) -> dict:
    (line, start), end = _at(text, word), _at(text, word)[1] + len(word)
    return {"start": {"line": line, "character": start}, "end": {"line": line, "character": end}}


def _open_effects(client, tmp_path) -> tuple[str, Path]:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "extra.yaml").write_text("unodsl: 1\nname: Extra\nuno: {penalty: 4}\n")
    path = tmp_path / "mine.yaml"
    uri = client.open(path, EFFECTS)
    assert client.diagnostics(uri, 1) == [], client.log()
    return uri, path


def test_hover_inside_effect_code_shows_the_statement_the_card_and_the_ruling(client, tmp_path):
    uri, _ = _open_effects(client, tmp_path)
    text = EFFECTS
    draws = client.hover(uri, *_at(text, "draws 2", 1))
    assert draws["contents"]["value"] == "`P draws N`\n\nP draws N cards (never more than the deck holds)."
    assert draws["range"] == _span(text, "next draws 2")
    player = client.hover(uri, *_at(text, "next holds"))
    assert player["contents"]["value"].startswith("`next`\n\nThe next player after `self`")
    assert player["range"] == _span(text, "next")
    holds = client.hover(uri, *_at(text, "holds card", 2))["contents"]["value"]
    assert holds.startswith("`P holds card TYPE`")
    assert client.hover(uri, *_at(text, "if next"))["contents"]["value"].startswith("`if COND: ...`")
    card = client.hover(uri, *_at(text, "draw_two and", 3))
    shown = card["contents"]["value"]
    assert shown.startswith("**Draw Two** (card type `draw_two`): action card, 8 in the deck, 20 points, draw 2.")
    assert "on_play:\n```\nnext draws 2 and loses turn\n```" in shown
    assert "*Rulebook:* The next player draws 2 cards and loses their turn" in shown
    assert card["range"] == _span(text, "card draw_two")
    ruling = client.hover(uri, *_at(text, "rule.loud", 6))
    assert ruling["contents"]["value"] == "**rule.loud** = `true`\n\nShouting is allowed."
    assert ruling["range"] == _span(text, "rule.loud")
    condition = client.hover(uri, *_at(text, "hand(self)", 1))["contents"]["value"]
    assert condition.startswith("`hand(P)`\n\n(number) Cards in P's hand.")
    # A card type's key, and a card id in stacking.cards: the card's own text.
    own = client.hover(uri, *_at(text, "shout:"))
    assert own["range"] == _span(text, "shout")
    assert own["contents"]["value"].startswith("**Shout** (card type `shout`): action card, 4 in the deck, 20 points, draw 2.")
    assert "restriction (challenge):\n```\nhand(self) > 1\n```" in own["contents"]["value"]
    assert "*Rulebook:* If the next player holds a Draw Two card" in own["contents"]["value"]
    listed = client.hover(uri, *_at(text, "draw_two, shout"))
    row, column = _at(text, "draw_two, shout")
    assert listed["contents"]["value"].startswith("**Draw Two**")
    assert listed["range"] == {"start": {"line": row, "character": column}, "end": {"line": row, "character": column + 8}}
    assert client.hover(uri, *_at(text, "  loud:", 2))["contents"]["value"].startswith("**rule.loud** = `true`")
    # An edit not yet checked (no didChange sent for it) is never answered from a stale check:
    # each change is checked first, and its trees are the ones hover reads.
    client.change(uri, text.replace("next draws 2\n", "next draws 2\n        reverse\n"), 2)
    client.diagnostics(uri, 2)
    moved = text.replace("next draws 2\n", "next draws 2\n        reverse\n")
    assert client.hover(uri, *_at(moved, "reverse"))["contents"]["value"].startswith("`reverse`\n\nThe direction")
    assert client.close() == 0


def test_definition_jumps_to_linked_files_card_types_and_rulings(client, tmp_path):
    uri, path = _open_effects(client, tmp_path)
    text = EFFECTS
    classic = REPO / "variants" / "classic.yaml"
    start = {"line": 0, "character": 0}
    assert client.definition(uri, *_at(text, "classic", 2)) == {"uri": classic.as_uri(),
                                                               "range": {"start": start, "end": start}}
    assert client.definition(uri, *_at(text, "extra.yaml"))["uri"] == (tmp_path / "extra.yaml").as_uri()
    # A card id in effect text: the key of its type, in the inherited file.
    lines = classic.read_text().split("\n")
    row = lines.index("  draw_two:")
    found = client.definition(uri, *_at(text, "draw_two and", 1))
    assert found == {"uri": classic.as_uri(), "range": {"start": {"line": row, "character": 2},
                                                        "end": {"line": row, "character": 2}}}
    here = {"line": _at(text, "  shout:")[0], "character": 2}
    assert client.definition(uri, *_at(text, "shout]")) == {"uri": path.as_uri(), "range": {"start": here, "end": here}}
    loud = {"line": _at(text, "  loud:")[0], "character": 2}
    assert client.definition(uri, *_at(text, "rule.loud", 5)) == {"uri": path.as_uri(),
                                                                 "range": {"start": loud, "end": loud}}
    assert client.definition(uri, *_at(text, "next draws")) is None        # a statement has no definition
    assert client.definition(uri, 0, 0) is None
    assert client.close() == 0


# The placeholders language.md's tables write (`P draws N`), each replaced by words the grammar reads there.
_HOLES = {"P": "self", "Q": "next", "N": "2", "C": "red", "G": "all", "NAME": "x", "EXPR": "1",
          "COND": "true", "TYPE": "x", "PILE": "bank", "...": "nothing"}
_HOLE = re.compile(r"\.\.\.|\b(?:P|Q|N|C|G|NAME|EXPR|COND|TYPE|PILE)\b")
_CODE = re.compile(r"\s*`([^`]+)`\s*(?:[/,]\s*)?")
_LINK = re.compile(r"\[([^\]]+)\]\(#[^)]*\)")
# The operators have a paragraph, not a table: it is the text of each of their rules.
_OPERATORS = ("or_expr", "and_expr", "not_", "comparison", "binop", "neg")


def derive_effect_docs(markdown: str) -> dict[str, tuple[str, str]]:
    """Grammar rule -> (its written form, its meaning), from sections 7 and 8 of docs/language.md."""
    found: dict[str, tuple[tuple[int, int], str, str]] = {}
    chapter = section = ""
    operators: list[str] = []
    for line in markdown.splitlines():
        if line.startswith("## "):
            chapter = line
        if line.startswith("#"):
            section = line
            continue
        if not chapter.startswith(("## 7.", "## 8.")):
            continue
        if section == "### Operators" and line and not any(seen.startswith("```") for seen in operators):
            operators.append(line)               # the paragraph, up to its example
        if not line.startswith("| `"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        meaning = _LINK.sub(r"language.md \1", cells[-1])
        if len(cells) == 3:                      # Expression | Type | Value
            meaning = f"({cells[1]}) {meaning}".rstrip()
        forms: dict[str, tuple[tuple[int, int], list[str]]] = {}
        pos = 0
        while (match := _CODE.match(cells[0], pos)) is not None:
            pos = match.end()
            for rule, rank in _rules_of(match.group(1)):
                forms.setdefault(rule, (rank, []))[1].append(f"`{match.group(1)}`")
        for rule, (rank, written) in forms.items():
            if rule not in found or rank < found[rule][0]:
                found[rule] = (rank, " / ".join(written), meaning)
    out = {rule: (form, meaning) for rule, (_, form, meaning) in sorted(found.items())}
    paragraph = " ".join(line for line in operators if not line.startswith("```"))
    out.update({rule: ("operators", _LINK.sub(r"language.md \1", paragraph)) for rule in _OPERATORS})
    return out


def _rules_of(form: str) -> list[tuple[str, tuple[int, int]]]:
    """The rules a table's written form stands for, ranked: the outermost, then the shortest form, first."""
    code, holes, last = "", [], 0
    for match in _HOLE.finditer(form):
        code += form[last:match.start()]
        holes.append((len(code) + 1, len(code) + 1 + len(_HOLES[match.group(0)])))
        code += _HOLES[match.group(0)]
        last = match.end()
    code += form[last:]
    whole = [(1, len(code) + 1)] == holes
    for start, source in (("effect", code), ("condition", code), ("effect", code + "\n    accepted: nothing")):
        tree, problems = parse(Text(source), start)
        if tree is not None and not problems:
            break
    else:
        return []                                # `elif COND: ...`: a part of a statement, not one
    nodes = [n for n in A.walk(tree) if n is not tree and n.rule
             and (whole or (n.span.column, n.span.end_column) not in holes or n.span.line > 1)]
    if nodes and isinstance(nodes[0], A.Var) and not whole:
        return []                                # `red`, `wild`: a word the grammar reads as a name
    return [(n.rule, (depth, len(nodes))) for depth, n in enumerate(nodes)]


def test_every_statement_and_expression_has_hover_docs_derived_from_language_md():
    derived = derive_effect_docs((REPO / "docs" / "language.md").read_text(encoding="utf-8"))
    table = "".join(f"    {rule!r}: ({form!r},\n        {meaning!r}),\n" for rule, (form, meaning) in derived.items())
    assert DOCS == derived, f"docs/language.md changed: the DOCS of unodsl/lsp/effect_docs.py are now\n{table}"
    assert set(A.STATEMENTS) <= set(DOCS) and set(A.EXPRESSIONS) <= set(DOCS)
    assert DOCS["draw"] == ("`P draws N`", "P draws N cards (never more than the deck holds).")
    assert DOCS["choose_player"][0] == "`let NAME = choose player G`" and DOCS["let"][0] == "`let NAME = EXPR`"


@pytest.mark.parametrize("junk", [
    "\x00\x01\x02binary\xff\xfe" * 50,
    "cards:\n  skip:\n    on_play: |\n      if next holds\n  - ]: {\n\t\t\"\n",
    "a: &a [*a, *a]\n" + "[" * 5000,
    "\ud800 lone surrogate\n",
    "x: 1\n" * 300_000,                        # past check's size limit
])
def test_junk_gives_diagnostics_and_the_server_stays_up(client, tmp_path, junk):
    path = tmp_path / "junk.yaml"
    uri = client.open(path, junk)
    got = client.diagnostics(uri, 1)
    assert got and all(g["code"].startswith("E1") for g in got), got
    for line, character in ((0, 0), (0, 3), (3, 12), (5, 2), (10_000, 99)):
        assert "error" not in client.request("textDocument/completion", {
            "textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
        assert "error" not in client.request("textDocument/hover", {
            "textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
        assert client.definition(uri, line, character) is None
    client.send_bytes(b"{not json")                            # a broken frame: answered or dropped, not fatal
    client.change(uri, "unodsl: 1\nname: Fine\nextends: classic\n", 2)
    assert client.diagnostics(uri, 2) == []
    assert "internal error" not in client.log()
    assert client.close() == 0


def test_a_buffer_never_saved_is_checked_and_a_document_never_opened_is_answered(client):
    uri = "untitled:Untitled-1"
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                                                          "text": "unodsl: 1\nname: New\nextends: classic\nbogus: 1\n"}})
    got = client.diagnostics(uri, 1)
    assert [(g["code"], g["range"]["start"], g["message"]) for g in got] == \
           [("E201", {"line": 3, "character": 0}, "unknown key 'bogus' at the top level")]
    assert "deal" in client.completion(uri, 4, 0)
    never = (REPO / "variants" / "no-such-file.yaml").as_uri()
    assert client.completion(never, 0, 0) == [] and client.hover(never, 0, 0) is None
    assert client.definition(never, 0, 0) is None
    assert client.definition(uri, 2, len("extends: c")) is not None     # a shipped name needs no folder
    assert "internal error" not in client.log()
    assert client.close() == 0
