"""RuleShift, the rule-following benchmark (`unodsl bench-rules`): do agents follow rules that changed?

It generates N novel variants (classic with k sampled shipped house rules and rulings flipped), keeps
those that check clean and whose screening games (heuristic bots) all end with a winner, and runs three
tracks, every draw from one seed:

- **questions**: positions reached by bots in each variant; "is ACTION legal for you now?" (one legal and
  one illegal action each) and "list every legal action", the ground truth from the engine, the illegal
  action's clause from the engine's reason;
- **play**: the agent against a bot at two seats, paired deals (the agent at each seat), the same deal
  under classic and under the variant: first-try illegal rate per clause, retries, win rates with Wilson
  intervals, and a rating against the bot (Elo scale, the bot at 1000);
- **write**: the agent writes the variant's file from its generated rulebook; graded by `check` (clean or
  not) and by play (the share of seeded games that the written file plays action for action as the
  variant does).

An agent is a seat spec; it plays through the seat protocol (`act`), and answers the questions and writes
files through `answer(question) -> str` (a dict with kind, prompt, rules, view, id); an agent without
`answer` is measured on play only.
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ..agents.seats import Seated, game_over, make_seat, seat_rng
from ..check import check_file
from ..rulebook.document import render_rulebook
from ..runs.intervals import wilson
from ..runs.seeds import game_seed
from ..source import catalog
from ..text.view import render

HOUSE_RULES = ("doubles", "draw-to-match", "force-play", "going-out-bonus", "hand-size-10", "jump-in", "neighbours",
               "no-bluffing", "pressure", "seven-o", "stacking-equal-or-higher", "stacking-mattel",
               "stacking-plus4-on-plus2", "stacking-progressive", "uno-at-two", "uno-penalty-4", "wild-roulette")
_ANSWER = re.compile(r"answer\s*:\s*(.*)", re.I | re.S)


@dataclass
class Novel:
    """A generated variant: the house rules laid over classic, the rulings changed, its file and Game."""

    name: str
    includes: tuple[str, ...]
    rulings: dict
    text: str
    game: object = field(repr=False)


def variant_text(name: str, includes: tuple[str, ...], rulings: dict) -> str:
    """The file of a generated variant: classic extended, house rules included, rulings set."""
    lines = ["unodsl: 1", f"name: {name}", "extends: classic"]
    if includes:
        lines.append("include: [" + ", ".join(includes) + "]")
    if rulings:
        lines.append("rulings:")
        for key, value in rulings.items():
            lines += [f"  {key}:", f"    value: {str(value).lower() if isinstance(value, bool) else value}"]
    return "\n".join(lines) + "\n"


def load_text(text: str, workdir: str):
    """Check a variant file given as text (a virtual file in `workdir`); (Game or None, its diagnostics)."""
    import os
    path = os.path.join(workdir, ".unodsl-bench-variant.yaml")
    result = check_file(path, workdir, texts={path: text})
    return (None if result.errors else result.game), result.errors


def generate(seed: int, count: int, *, max_rules: int = 2, max_rulings: int = 1, screen_games: int = 1000,
             players: int = 2, workdir: str = ".") -> tuple[list[Novel], dict]:
    """`count` novel variants, each checked clean and screened; and what was rejected, by reason."""
    from ..runs.simulate import run_range
    rng = random.Random(seed)
    classic = check_file(catalog.path_of("classic")).game
    rulings = sorted(classic.variant.rulings.items())
    kept: list[Novel] = []
    rejected: Counter = Counter()
    seen = set()
    attempts = 0
    while len(kept) < count and attempts < 30 * count:
        attempts += 1
        includes = tuple(sorted(rng.sample(HOUSE_RULES, rng.randint(1, max_rules))))
        changed = {}
        for name, ruling in rng.sample(rulings, rng.randint(0, max_rulings)):
            if ruling.choices:
                changed[name] = rng.choice([c for c in ruling.choices if c != ruling.value])
            elif isinstance(ruling.value, bool):
                changed[name] = not ruling.value
        key = (includes, tuple(sorted(changed.items())))
        if key in seen:
            continue
        seen.add(key)
        name = f"novel-{len(kept) + 1}"
        text = variant_text(name, includes, changed)
        game, errors = load_text(text, workdir)
        if game is None:
            rejected["does not check clean"] += 1
            continue
        stats = run_range(game, players, game_seed(seed, attempts), 0, screen_games, ["heuristic"])
        if stats.stalls or stats.no_winner:
            rejected["a screening game did not end"] += 1
            continue
        kept.append(Novel(name, includes, changed, text, game))
    return kept, dict(rejected)


# --- clauses ----------------------------------------------------------------------------------------


def clause(reason: str, game) -> str:
    """The rule clause an engine reason names: the reason with its cards, colors, numbers and players taken out."""
    words = []
    for word in reason.split():
        bare = word.strip("'\",.:;()")
        if bare in game.card_index:
            word = word.replace(bare, "CARD")
        elif bare in game.variant.colors:
            word = word.replace(bare, "COLOR")
        elif bare.isdigit():
            word = word.replace(bare, "N")
        words.append(word)
    return " ".join(words)


def _answer_text(reply: str) -> str:
    found = _ANSWER.findall(reply or "")
    return (found[-1] if found else (reply or "")).strip()


# --- track (a): questions ------------------------------------------------------------------------------


def positions(game, seed: int, count: int, players: int = 2) -> list:
    """`count` positions of `game` at a turn with a choice, reached by heuristic bots from seeded deals."""
    out = []
    rng = random.Random(seed)
    for index in range(count * 5):
        if len(out) >= count:
            break
        s = game_seed(seed, index)
        state = game.new_game(players, seed=s, record=True)
        bots = [make_seat("heuristic", seat_rng(s, q)) for q in range(players)]
        stop_at = rng.randint(0, 40)
        steps = 0
        while not state.is_over:
            if steps >= stop_at and state.decision == "turn" and len(state.legal_action_ids()) > 1:
                out.append(state)
                break
            state.apply_id(bots[state.current_player].act(state))
            steps += 1
    return out


def questions(novel: Novel, seed: int, count: int) -> list[dict]:
    """Rule questions about positions of the variant: is-legal (one legal and one illegal action each) and list-legal."""
    from ..agents.seats import AgentView, resolve
    game = novel.game
    rng = random.Random(seed)
    out = []
    for state in positions(game, seed, count):
        view = AgentView(state)
        legal = state.legal_actions()
        seat = state.current_player
        candidates = [f"play {c}" for c in sorted(set(state.hand(seat)))] + [f"play {c} uno" for c in sorted(set(state.hand(seat)))] + ["draw"]
        illegal = [a for a in candidates if a not in legal]
        text = render(view)
        base = {"variant": novel.name, "view": view, "text": text, "legal": legal}
        pick = rng.choice(legal)
        out.append({**base, "kind": "is_legal", "action": pick, "truth": True, "clause": ""})
        if illegal:
            wrong = rng.choice(illegal)
            _, reason = resolve(state, wrong, state.legal_action_ids())
            out.append({**base, "kind": "is_legal", "action": wrong, "truth": False, "clause": clause(reason, game)})
        out.append({**base, "kind": "list_legal", "action": "", "truth": sorted(legal), "clause": ""})
    for i, q in enumerate(out):
        q["id"] = seed * 1000 + i
        q["prompt"] = _question_prompt(q)
    return out


def _question_prompt(q: dict) -> str:
    if q["kind"] == "is_legal":
        ask = f"Is `{q['action']}` a legal action for you now? Answer on the last line: ANSWER: yes, or ANSWER: no."
    else:
        ask = "List every action legal for you now, after a line ANSWER:, one action per line."
    return q["text"] + "\n\n" + ask


def grade_question(q: dict, reply: str) -> float:
    """1.0 for a right yes/no; the Jaccard index of the listed and the legal actions for a list."""
    answer = _answer_text(reply)
    if q["kind"] == "is_legal":
        said = answer.lower().split()[0].strip(".") if answer.split() else ""
        return float((said == "yes") == q["truth"] and said in ("yes", "no"))
    listed = {" ".join(line.strip().strip("-*`").split()) for line in answer.splitlines() if line.strip()}
    truth = set(q["truth"])
    return len(listed & truth) / len(listed | truth) if listed | truth else 1.0


# --- the run --------------------------------------------------------------------------------------------


def _agent(spec: str, seed: int):
    seat = make_seat(spec, seat_rng(seed, 0))
    return seat, getattr(seat, "agent", None)


def run_questions(spec: str, novels: list[Novel], seed: int, per_variant: int) -> dict:
    _, agent = _agent(spec, seed)
    if agent is None or not callable(getattr(agent, "answer", None)):
        return {"skipped": "the agent has no answer(question) method"}
    by_kind: dict[str, list[float]] = defaultdict(list)
    by_clause: dict[str, list[float]] = defaultdict(list)
    for n, novel in enumerate(novels):
        rules = render_rulebook(novel.game, "markdown")
        for q in questions(novel, game_seed(seed, 100 + n), per_variant):
            score = grade_question(q, agent.answer({**q, "rules": rules}))
            key = q["kind"] + ("" if q["kind"] == "list_legal" else (" (legal)" if q["truth"] else " (illegal)"))
            by_kind[key].append(score)
            if q["clause"]:
                by_clause[q["clause"]].append(score)
    return {"by_kind": {k: _mean(v) for k, v in sorted(by_kind.items())},
            "illegal_judged_by_clause": {k: _mean(v) for k, v in sorted(by_clause.items())}}


def _mean(values: list[float]) -> dict:
    return {"n": len(values), "score": round(sum(values) / len(values), 4) if values else None}


def _play(game, spec: str, opponent: str, engine_seed: int, agent_seat: int) -> tuple[bool, Seated | None, bool]:
    specs = [opponent, opponent]
    specs[agent_seat] = spec
    state = game.new_game(2, seed=engine_seed, record=True)
    seats = [make_seat(s, seat_rng(engine_seed, q)) for q, s in enumerate(specs)]
    while not state.is_over:
        state.apply_id(seats[state.current_player].act(state))
    game_over(seats, state)
    seat = seats[agent_seat]
    return state.winner == agent_seat, seat if isinstance(seat, Seated) else None, bool(state.stalled)


def run_play(spec: str, novels: list[Novel], seed: int, deals: int, opponent: str = "heuristic") -> dict:
    classic = check_file(catalog.path_of("classic")).game
    out: dict = {"opponent": opponent}
    for label, games in (("classic", [classic] * len(novels)), ("variant", [n.game for n in novels])):
        wins = played = decisions = first_illegal = illegal = fallbacks = 0
        clauses: Counter = Counter()
        for n, game in enumerate(games):
            for deal in range(deals):
                engine_seed = game_seed(seed, 10_000 * (n + 1) + deal)
                for agent_seat in (0, 1):
                    won, seat, _ = _play(game, spec, opponent, engine_seed, agent_seat)
                    wins += won
                    played += 1
                    if seat is not None:
                        decisions += seat.decisions
                        first_illegal += seat.first_try_illegal
                        illegal += seat.incidents.get("illegal", 0)
                        fallbacks += seat.incidents.get("fallback", 0)
                        clauses.update(clause(reason, game) for attempt, _, reason in seat.refusals if attempt == 0)
        low, high = wilson(wins, played)
        p = min(max(wins / played, 0.5 / played), 1 - 0.5 / played)
        import math
        out[label] = {"games": played, "wins": wins, "win_rate": round(wins / played, 4),
                      "ci95": [round(low, 4), round(high, 4)],
                      "rating": round(1000 + 400 * math.log10(p / (1 - p)), 1),
                      "decisions": decisions,
                      "first_try_illegal_rate": round(first_illegal / decisions, 4) if decisions else None,
                      "retries_used": illegal, "fallbacks": fallbacks,
                      "first_try_illegal_by_clause": dict(clauses.most_common())}
    return out


def run_write(spec: str, novels: list[Novel], seed: int, games: int, workdir: str) -> dict:
    _, agent = _agent(spec, seed)
    if agent is None or not callable(getattr(agent, "answer", None)):
        return {"skipped": "the agent has no answer(question) method"}
    clean = 0
    same: list[float] = []
    for n, novel in enumerate(novels):
        rules = render_rulebook(novel.game, "markdown")
        prompt = (rules + "\n\nWrite the unodsl variant file (YAML) that these rules describe. You may extend a "
                  "shipped variant (extends: classic) and include shipped house rules (include: [jump-in]). "
                  "Answer with the file after a line ANSWER:.")
        reply = agent.answer({"kind": "write", "id": game_seed(seed, 200 + n), "prompt": prompt, "rules": rules,
                              "view": None, "variant": novel.name})
        text = _answer_text(reply).strip().strip("`")
        if text.startswith("yaml\n"):
            text = text[5:]
        written, _ = load_text(text, workdir)
        if written is None:
            same.append(0.0)
            continue
        clean += 1
        same.append(_same_play(novel.game, written, game_seed(seed, 300 + n), games))
    return {"variants": len(novels), "checks_clean": clean, "plays_alike": round(sum(same) / len(same), 4) if same else None}


def _same_play(game_a, game_b, seed: int, games: int) -> float:
    """The share of seeded games with heuristic bots that two variants play action for action alike."""
    alike = 0
    for i in range(games):
        s = game_seed(seed, i)
        logs = []
        for game in (game_a, game_b):
            state = game.new_game(2, seed=s)
            seats = [make_seat("heuristic", seat_rng(s, q)) for q in range(2)]
            while not state.is_over:
                state.apply_id(seats[state.current_player].act(state))
            logs.append([game.action_to_string(a) for a in state.history])
        alike += logs[0] == logs[1]
    return alike / games


def run_benchmark(agents: list[str], *, seed: int = 2026, variants: int = 6, screen_games: int = 1000,
                  questions_per_variant: int = 6, deals: int = 10, write_games: int = 20, opponent: str = "heuristic",
                  workdir: str = ".") -> dict:
    """The whole benchmark for every agent; a JSON-ready report. Deterministic given the seed."""
    novels, rejected = generate(seed, variants, screen_games=screen_games, workdir=workdir)
    report = {"benchmark": "RuleShift", "version": 1, "seed": seed, "screen_games": screen_games,
              "variants": [{"name": n.name, "house_rules": list(n.includes), "rulings": n.rulings} for n in novels],
              "rejected": rejected, "settings": {"questions_per_variant": questions_per_variant, "deals": deals,
                                                 "write_games": write_games, "opponent": opponent},
              "agents": {}}
    for spec in agents:
        report["agents"][spec] = {
            "questions": run_questions(spec, novels, seed, questions_per_variant),
            "play": run_play(spec, novels, seed, deals, opponent),
            "write": run_write(spec, novels, seed, write_games, workdir),
        }
    return report


def format_report(report: dict) -> str:
    """The report in Markdown: the variants, then each agent's three tracks."""
    out = [f"# RuleShift: seed {report['seed']}", "",
           f"{len(report['variants'])} novel variants (classic + house rules + rulings), each checked clean and "
           f"screened by {report['screen_games']} heuristic games that all ended; rejected: "
           + (", ".join(f"{v} {k}" for k, v in report["rejected"].items()) or "none") + ".", "",
           "| variant | house rules | rulings changed |", "|---|---|---|"]
    for v in report["variants"]:
        rulings = ", ".join(f"{k}: {v2}" for k, v2 in v["rulings"].items()) or "-"
        out.append(f"| {v['name']} | {', '.join(v['house_rules'])} | {rulings} |")
    for spec, tracks in report["agents"].items():
        out += ["", f"## {spec}", "", "**Questions**"]
        q = tracks["questions"]
        if "skipped" in q:
            out.append(f"skipped: {q['skipped']}")
        else:
            out += ["", "| question | n | score |", "|---|---|---|"]
            out += [f"| {k} | {v['n']} | {v['score']:.3f} |" for k, v in q["by_kind"].items()]
            if q["illegal_judged_by_clause"]:
                out += ["", "Illegal actions judged illegal, by the clause the engine named:", "",
                        "| clause | n | score |", "|---|---|---|"]
                out += [f"| {k} | {v['n']} | {v['score']:.3f} |" for k, v in q["illegal_judged_by_clause"].items()]
        p = tracks["play"]
        out += ["", f"**Play** against {p['opponent']} (paired deals, both seats)", "",
                "| rules | games | win rate | 95% interval | rating | first-try illegal | retries | fallbacks |",
                "|---|---|---|---|---|---|---|---|"]
        for label in ("classic", "variant"):
            r = p[label]
            rate = "-" if r["first_try_illegal_rate"] is None else f"{r['first_try_illegal_rate']:.1%}"
            out.append(f"| {label} | {r['games']} | {r['win_rate']:.1%} | [{r['ci95'][0]:.1%}, {r['ci95'][1]:.1%}] | "
                       f"{r['rating']:.0f} | {rate} | {r['retries_used']} | {r['fallbacks']} |")
        clauses = p["variant"]["first_try_illegal_by_clause"]
        if clauses:
            out += ["", "First-try illegal actions in the variants, by clause:", "", "| clause | count |", "|---|---|"]
            out += [f"| {k} | {v} |" for k, v in clauses.items()]
        w = tracks["write"]
        out += ["", "**Write the file**", ""]
        out.append(f"skipped: {w['skipped']}" if "skipped" in w else
                   f"{w['checks_clean']} of {w['variants']} files check clean; plays alike: {w['plays_alike']:.1%} "
                   f"of seeded games")
    return "\n".join(out) + "\n"
