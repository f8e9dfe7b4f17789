"""`simulate --backend ray` on a local Ray with 2 CPUs gives what one process gives."""

import json

import pytest

pytest.importorskip("ray")

from unodsl.runs.simulate import simulate  # noqa: E402


def test_ray_gives_the_same_statistics_as_one_process():
    args = ("variants/classic.yaml", 300, 4, 9, ["heuristic"])
    alone = simulate(*args, workers=1, measure=True).summary()
    on_ray = simulate(*args, workers=2, measure=True, backend="ray").summary()
    assert on_ray["games"] == 300
    assert json.dumps(on_ray, sort_keys=True) == json.dumps(alone, sort_keys=True)
