"""The effect language: grammar, parser, syntax tree, checker, folder and lowering to engine code.

effect.lark the grammar
lexer       the contextual lexer, one regex for all states
parse       text -> syntax tree (E4xx), every text of a variant once (Variant.syntax); only this imports Lark
ast         the syntax tree: a frozen, slotted node class per grammar rule, with spans
check       scopes, names and types (E5xx)
fold        constant folding, shared by the lowering and the rulebook
lower       checked tree -> op lists, with the Code and Predicate records the engine reads
layout      what compiled code and the engine agree on: decision kinds, frame slots, op flags
"""
