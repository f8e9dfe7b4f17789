"""The effect language: grammar, lexer, parser and the compiler to engine code.

effect.lark the grammar
lexer       the contextual lexer, one regex for all states
layout      what compiled code and the engine agree on: decision kinds, frame slots
compiler    effect and condition text -> type-checked code (E5xx)
"""
