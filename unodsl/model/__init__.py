"""The typed model of a variant: frozen dataclasses built from a composed tree (E3xx)."""

from .variant import Variant, build_variant

__all__ = ["Variant", "build_variant"]
