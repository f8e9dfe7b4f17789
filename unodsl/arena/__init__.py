"""Agents measured: the ladder (ratings anchored to the built-in bots) and the rule-following benchmark."""
