"""Rule scenarios: a position, the moves, and what must hold afterwards (`unodsl test`).

given   reading a scenario's card ids, colors, actions and seats; the position from `given:`
expect  the `expect:` checks, cards conserved, refused actions
runner  running one scenario and whole scenario files
report  the results as lines, JSON and JUnit XML
"""

from .given import ScenarioError, build_state
from .report import Report
from .runner import run_scenario, run_scenario_files

__all__ = ["Report", "ScenarioError", "build_state", "run_scenario", "run_scenario_files"]
