"""A contextual lexer for Lark's LALR parser that compiles one regex, not one per parser state.

Lark's ContextualLexer gives every parser state its own lexer, and each of those compiles
an alternation of the terminals that state accepts the first time it is used: a fresh
`unodsl check` compiles some thirty large regexes before it has parsed a dozen effects.
This lexer compiles a single pattern for the whole grammar, one lookahead group per regex
terminal, so that one match tells what each of them would match at the current position;
string terminals (keywords, punctuation) are compared as plain text. The parser state then
picks the token exactly as Lark's ContextualLexer does:

- the first terminal the state accepts, in Lark's order (priority, longest possible match,
  longest pattern, name), that matches; so `skip` is a keyword where the state accepts it
  and a NAME elsewhere, and `-` is ADD_OP or the unary minus by the same rule;
- a regex terminal whose match is exactly a string terminal the state also accepts becomes
  that terminal (Lark's "unless" callback), and such a string is not tried on its own;
- where none matches, the token the whole grammar's lexer would give is raised as
  UnexpectedToken, or UnexpectedCharacters when no terminal matches at all, with the same
  expected set and position as Lark's, so diagnostics do not change.

Lark's `lexer_callbacks` and `use_bytes` are not supported, and case-insensitive strings are refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark.common import LexerConf
from lark.exceptions import ConfigurationError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer, LexerState, LineCounter, PatternStr, TerminalDef, Token

if TYPE_CHECKING:
    from lark.parsers.lalr_parser_state import ParserState

Groups = Sequence[str | None]       # what each regex terminal matches at the position, by group index


@dataclass(frozen=True)
class _Candidate:
    """A terminal one context tries: a string, or a regex with the strings of the context it spells."""
    name: str
    string: str | None               # the text of a string terminal
    group: int                       # a regex terminal's group index in the master pattern
    strings: Mapping[str, str]       # a regex terminal's match -> the string terminal that is exactly it

    def match(self, text: str, pos: int, end: int, groups: Groups) -> str | None:
        """What this terminal matches at `pos`, if anything."""
        if self.string is None:
            return groups[self.group]
        return self.string if text.startswith(self.string, pos, end) else None


@dataclass(frozen=True)
class _Context:
    """How Lark's BasicLexer over one set of terminals lexes, and what its errors list as allowed."""
    candidates: tuple[_Candidate, ...]
    allowed: frozenset[str]

    def first(self, text: str, pos: int, end: int, groups: Groups) -> tuple[_Candidate, str] | None:
        """The first candidate that matches at `pos`, and what it matches."""
        for candidate in self.candidates:
            value = candidate.match(text, pos, end, groups)
            if value is not None:
                return candidate, value
        return None


class ContextLexer(Lexer):
    """Lark's ContextualLexer, token for token, with a single compiled regex (see module docstring)."""

    __future_interface__ = 2        # Lark calls lex(lexer_state, parser_state)

    def __init__(self, conf: LexerConf) -> None:
        if conf.g_regex_flags & re.IGNORECASE or any(
                isinstance(t.pattern, PatternStr) and t.pattern.flags for t in conf.terminals):
            raise ConfigurationError("ContextLexer matches string terminals case-sensitively")
        self._terminals: list[TerminalDef] = sorted(
            conf.terminals, key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
        self._terminals_by_name = conf.terminals_by_name
        self._ignore = frozenset(conf.ignore)
        self._always = self._ignore | set(conf.postlex.always_accept if conf.postlex else ())
        self._pattern = conf.re_module.compile(
            "".join(f"(?=(?P<{t.name}>{t.pattern.to_regexp()})|)"
                    for t in self._terminals if not isinstance(t.pattern, PatternStr)), conf.g_regex_flags)
        self._group = {name: number - 1 for name, number in self._pattern.groupindex.items()}
        self._spellers = {t.name: self._spellers_of(t) for t in self._terminals if t.name not in self._group}
        self._root = self._context(frozenset(self._terminals_by_name))
        self._contexts: dict[int, _Context] = {}

    def _spellers_of(self, string: TerminalDef) -> frozenset[str]:
        """The regex terminals of the same priority whose match at the start of `string`'s text is all of it."""
        text = string.pattern.value
        groups = self._pattern.match(text).groups()
        return frozenset(name for name, group in self._group.items()
                         if groups[group] == text and self._terminals_by_name[name].priority == string.priority)

    def _context(self, names: frozenset[str]) -> _Context:
        """Mirror Lark's BasicLexer restricted to `names`, including its `_create_unless` step."""
        terminals = [t for t in self._terminals if t.name in names]
        spelled: dict[str, dict[str, str]] = {}
        for string in terminals:
            for regex in self._spellers.get(string.name, frozenset()) & names:
                spelled.setdefault(regex, {})[string.pattern.value] = string.name
        hidden = {name for by_text in spelled.values() for name in by_text.values()}
        candidates = tuple(
            _Candidate(t.name, None if t.name in self._group else t.pattern.value, self._group.get(t.name, -1),
                       spelled.get(t.name, {}))
            for t in terminals if t.name not in hidden)
        allowed = frozenset(c.name for c in candidates) - self._ignore
        return _Context(candidates, allowed or frozenset({"<END-OF-FILE>"}))

    def _context_at(self, parser_state: ParserState) -> _Context:
        """The context of the parser's state: what it accepts, plus ignored and postlexer terminals."""
        position = parser_state.position
        context = self._contexts.get(position)
        if context is None:
            accepts = parser_state.parse_conf.parse_table.states[position]
            context = self._contexts[position] = self._context(self._always.union(accepts))
        return context

    def lex(self, lexer_state: LexerState, parser_state: ParserState) -> Iterator[Token]:
        """Yield tokens, each chosen by the parser state current when it is lexed."""
        while (token := self._next_token(lexer_state, parser_state)) is not None:
            yield token

    def _next_token(self, lexer_state: LexerState, parser_state: ParserState) -> Token | None:
        """The next token that is not ignored, or None at the end of the text."""
        text, end = _text(lexer_state)
        counter = lexer_state.line_ctr
        context = self._context_at(parser_state)
        while counter.char_pos < end:
            groups = self._pattern.match(text, counter.char_pos, end).groups()
            found = context.first(text, counter.char_pos, end, groups)
            if found is None:
                raise self._error(lexer_state, parser_state, context.allowed, groups)
            candidate, value = found
            if candidate.name in self._ignore:
                counter.feed(value)
                continue
            lexer_state.last_token = _take(counter, candidate.strings.get(value, candidate.name), value)
            return lexer_state.last_token
        return None

    def _error(self, lexer_state: LexerState, parser_state: ParserState, allowed: frozenset[str],
               groups: Groups) -> UnexpectedInput:
        """What Lark's ContextualLexer raises where no terminal of the state matches."""
        (text, end), counter, last = _text(lexer_state), lexer_state.line_ctr, lexer_state.last_token
        found = self._root.first(text, counter.char_pos, end, groups)
        if found is None:
            return UnexpectedCharacters(text, counter.char_pos, counter.line, counter.column,
                                        allowed=allowed, token_history=last and [last], state=parser_state,
                                        terminals_by_name=self._terminals_by_name)
        candidate, value = found
        token = _take(counter, candidate.strings.get(value, candidate.name), value)
        return UnexpectedToken(token, allowed, state=parser_state, token_history=[last],
                               terminals_by_name=self._terminals_by_name)


def _text(lexer_state: LexerState) -> tuple[str, int]:
    """The text being lexed and where lexing stops (Lark 1.3 wraps it in a TextSlice, older Larks do not)."""
    text = lexer_state.text
    return (text.text, text.end) if hasattr(text, "end") else (text, len(text))


def _take(counter: LineCounter, type_: str, value: str) -> Token:
    """A token for `value` at the counter's position, moving the counter past it (as Lark's lexers do)."""
    start = counter.char_pos, counter.line, counter.column
    counter.feed(value)
    return Token(type_, value, *start, counter.line, counter.column, counter.char_pos)
