"""The instruction set the compiler emits: every instruction says what it may do."""

from unodsl.engine.ops import OP_FLAGS, OPS
from unodsl.effects.layout import DRAWS, PAUSES, PUSHES, RESHAPES


def test_every_instruction_declares_what_it_may_do():
    assert set(OP_FLAGS) == set(OPS)
    assert all(flags <= {DRAWS, PAUSES, PUSHES, RESHAPES} for flags in OP_FLAGS.values())


def test_an_instruction_that_sets_a_decision_declares_that_it_pauses():
    """An op whose body sets `pending` stops for a decision: it must say PAUSES."""
    import inspect
    for name, fn in OPS.items():
        if "st.pending = " in inspect.getsource(fn):
            assert PAUSES in OP_FLAGS[name], name


def test_the_instruction_set_is_the_ops_module_and_no_state_method():
    """One place lists the ops: each is a plain function of engine/ops.py, registered under its own name."""
    from unodsl.engine import State, ops
    assert OPS and all(fn.__module__ == ops.__name__ and getattr(ops, name) is fn for name, fn in OPS.items())
    assert not [name for name in dir(State) if name.startswith("op_") or getattr(State, name) in OPS.values()]
