"""Inside unodsl/engine no underscore name crosses a module: what one module calls or overrides of another is public.

An attribute `X._name` read in an engine module must be defined in that module (tools/underscore_crossings.py
says what counts as defined); the engine modules' import order is the `engine-layers` contract in
pyproject.toml (tests/test_layers.py runs it).
"""

from __future__ import annotations

from tools.underscore_crossings import crossings, overrides

# name -> why it may still be read outside the module that defines it (keep this short).
ALLOWED: dict[str, str] = {}


def test_no_underscore_name_crosses_an_engine_module():
    found = {name: places for name, places in crossings().items() if name not in ALLOWED}
    assert found == {}, "underscore names read across engine modules (make them public):\n" + "\n".join(
        f"  {name}: {' '.join(places)}" for name, places in found.items())


def test_no_private_method_is_overridden_in_another_engine_module():
    found = {name: modules for name, modules in overrides().items() if name not in ALLOWED}
    assert found == {}, f"underscore members defined in more than one engine module (make them public): {found}"


def test_the_allow_list_holds_only_crossings_still_there():
    assert sorted(set(ALLOWED) - set(crossings()) - set(overrides())) == []


def test_a_crossing_is_caught(tmp_path):
    (tmp_path / "a.py").write_text("class A:\n    __slots__ = ('_kept',)\n\n    def _mine(self):\n"
                                   "        return self._kept\n")
    (tmp_path / "b.py").write_text("import a\n\n\ndef f(st):\n    st._mine()\n    st.__class__\n"
                                   "    st._own = 1\n    return st._own, a._helper\n")
    assert crossings(tmp_path) == {"_helper": ["b:8"], "_mine": ["b:5"]}
    (tmp_path / "c.py").write_text("import a\n\n\nclass C(a.A):\n    def _mine(self):\n        return 1\n")
    assert overrides(tmp_path) == {"_mine": ["a", "c"]}
