"""`simulate --backend ray` on a local Ray with 2 CPUs gives what one process gives."""

import json

import pytest

pytest.importorskip("ray")

from unodsl.runs.ray_backend import run_on_ray  # noqa: E402
from unodsl.runs.simulate import simulate  # noqa: E402


def test_ray_gives_the_same_statistics_as_one_process():
    args = ("variants/classic.yaml", 300, 4, 9, ["heuristic"])
    alone = simulate(*args, workers=1, measure=True).summary()
    on_ray = run_on_ray("variants/classic.yaml", None, None, 300, 4, 9, ["heuristic"], 2, False, None, [],
                        True).summary()
    assert on_ray["games"] == 300
    assert json.dumps(on_ray, sort_keys=True) == json.dumps(alone, sort_keys=True)
