"""The typed model of a variant: frozen dataclasses built from a composed tree (E3xx)."""

from .build import build_variant
from .variant import Variant

__all__ = ["Variant", "build_variant"]
