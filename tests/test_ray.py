"""`simulate --backend ray` and `compare --backend ray` on a local Ray with 2 CPUs give what one process gives."""

import json

import pytest

ray = pytest.importorskip("ray")

from unodsl.runs.compare import compare  # noqa: E402
from unodsl.runs.ray_backend import compare_on_ray, run_on_ray  # noqa: E402
from unodsl.runs.simulate import simulate  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray for the module's tests: the backend uses it and leaves it running."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def test_ray_gives_the_same_statistics_as_one_process(local_ray):
    args = ("variants/classic.yaml", 300, 4, 9, ["heuristic"])
    alone = simulate(*args, workers=1, measure=True).summary()
    on_ray = run_on_ray("variants/classic.yaml", None, None, 300, 4, 9, ["heuristic"], 2, False, None, [],
                        True).summary()
    assert on_ray["games"] == 300
    assert json.dumps(on_ray, sort_keys=True) == json.dumps(alone, sort_keys=True)


def test_ray_gives_the_same_comparison_as_one_process(local_ray):
    sides = (("variants/classic.yaml", None, {"draw_two_start_skips": False}, None),
             ("variants/classic.yaml", None, None, None))
    alone = compare(sides, 200, 4, 3, ["heuristic", "random"]).summary()
    on_ray = compare_on_ray(sides, 200, 4, 3, ["heuristic", "random"], 2)
    assert on_ray.games == 200
    assert json.dumps(on_ray.summary(), sort_keys=True) == json.dumps(alone, sort_keys=True)
