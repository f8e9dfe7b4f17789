"""A simulation's or a comparison's figures as a page people read: HTML with plots, or Markdown with PNGs.

`render_simulation` and `render_comparison` return the files to write (name -> bytes);
the command line writes them atomically and refuses to overwrite without --force.
Plots are drawn with matplotlib (the `report` extra), on the Agg backend: no screen.
"""

from __future__ import annotations

import base64
import html
import io

_BLUE, _GREY, _RED = "#2b6cb0", "#a0aec0", "#c53030"


def _pyplot():
    try:
        import matplotlib
    except ImportError as exc:                         # the CLI turns this into a message and exit 1
        raise RuntimeError("reports need matplotlib: pip install 'unodsl[report]'") from exc
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _png(fig) -> bytes:
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=110, bbox_inches="tight",
                metadata={"Software": None})           # no version stamp: the same figures give the same bytes
    _pyplot().close(fig)
    return out.getvalue()


def _percent():
    from matplotlib.ticker import PercentFormatter
    return PercentFormatter(1.0, decimals=0)


def _length_plot(report: dict) -> bytes:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    bins = report["length"]["histogram"]
    ax.bar([b["from"] for b in bins], [b["games"] for b in bins], width=[b["to"] - b["from"] + 1 for b in bins],
           align="edge", color=_BLUE, edgecolor="white")
    for label, value, style in (("median", report["length"]["median"], "--"), ("p95", report["length"]["p95"], ":")):
        ax.axvline(value, color=_RED, linestyle=style, label=f"{label} {value}")
    ax.set_xlabel("turns per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    ax.legend(frameon=False)
    return _png(fig)


def _rate_plot(rows: list[dict], key: str, label: str, fair: float, title: str) -> bytes:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.0))
    xs = [str(r[key]) for r in rows]
    rates = [r["win_rate"] for r in rows]
    errors = [[r["win_rate"] - r["ci95"][0] for r in rows], [r["ci95"][1] - r["win_rate"] for r in rows]]
    ax.bar(xs, rates, color=_BLUE, yerr=errors, capsize=4, ecolor="#1a202c")
    ax.axhline(fair, color=_GREY, linestyle="--", label=f"fair share {fair:.2f}")
    ax.set_xlabel(label)
    ax.set_ylabel("win rate (95% interval)")
    ax.yaxis.set_major_formatter(_percent())
    ax.set_title(title)
    ax.legend(frameon=False)
    return _png(fig)


def _cards_plot(cards: list[dict]) -> bytes:
    plt = _pyplot()
    shown = cards[:15]
    fig, ax = plt.subplots(figsize=(6.4, 0.35 * len(shown) + 1.2))
    names = [c["card"] for c in shown][::-1]
    ax.barh(names, [c["plays_per_game"] for c in shown][::-1], color=_BLUE)
    for y, card in enumerate(shown[::-1]):
        ax.text(card["plays_per_game"], y, f"  next player's hand {card['next_hand_change']:+.2f}", va="center",
                fontsize=8)
    ax.set_xlabel("cards of this type played per game")
    ax.set_ylabel("card type")
    ax.set_title("How often each card is played, and what it does to the next player's hand")
    ax.margins(x=0.45)
    return _png(fig)


def _interval_rows_plot(labels: list[str], values: list[float], intervals: list, xlabel: str, title: str,
                        zero_line: float | None = 0.0) -> bytes:
    """One row a label, all on one scale: the value as a dot inside its 95% interval (red when it excludes the
    zero line), the numbers at the right."""
    import textwrap
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.6, 0.38 * len(labels) + 1.3))
    ys = list(range(len(labels)))[::-1]
    for y, value, (low, high) in zip(ys, values, intervals):
        excludes = zero_line is not None and (low > zero_line or high < zero_line)
        ax.plot([low, high], [y, y], color=_RED if excludes else _BLUE, linewidth=6, solid_capstyle="butt")
        ax.plot([value], [y], "o", color="#1a202c", markersize=4)
    if zero_line is not None:
        ax.axvline(zero_line, color="#1a202c", linewidth=0.8)
    ax.set_yticks(ys)
    ax.set_yticklabels([textwrap.fill(label, 46) for label in labels], fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", color="#e2e8f0")
    ax.set_axisbelow(True)
    return _png(fig)


def _restricted_plot(rows: list[dict]) -> bytes:
    return _interval_rows_plot(
        [f"may never {row['words']}" for row in rows], [100 * row["value"] for row in rows],
        [(100 * row["ci95"][0], 100 * row["ci95"][1]) for row in rows],
        "win rate lost by the restricted player, in percentage points (95% interval)",
        "Restricted play: what each option is worth to the player who has it\n"
        "(red: the interval excludes 0, the option matters)")


def _snowball_plot(report: dict) -> bytes:
    plt = _pyplot()
    rows = report["snowball"]
    fig, ax = plt.subplots(figsize=(6.4, 3.0))
    xs = [f"{row['at']}% of the game" for row in rows]
    rates = [row["win_rate"] for row in rows]
    errors = [[r["win_rate"] - r["ci95"][0] for r in rows], [r["ci95"][1] - r["win_rate"] for r in rows]]
    ax.bar(xs, rates, color=_BLUE, yerr=errors, capsize=4, ecolor="#1a202c")
    fair = rows[0]["fair"] if rows else 0.0
    ax.axhline(fair, color=_GREY, linestyle="--", label=f"fair share {fair:.0%}")
    ax.set_xlabel("when the leader is taken: the player holding the fewest cards alone")
    ax.set_ylabel("that player's win rate\n(95% interval)")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(_percent())
    ax.set_title("Snowball: does an early lead decide the game?")
    ax.legend(frameon=False)
    return _png(fig)


def _ladder_plot(luck: dict) -> bytes:
    bots = luck["bots"]
    return _interval_rows_plot(
        [b["bot"] for b in bots], [b["rating"] for b in bots], [tuple(b["ci95"]) for b in bots],
        f"rating in Elo points above {bots[0]['bot']} (95% interval)",
        f"Luck against skill: the bots' ratings; their strength explains {luck['explained']:.0%} of who wins",
        zero_line=None)


# Units of the per-game figures: the words of a difference's axis, and the factor it is shown with.
UNITS = {"share": ("percentage points (shares and win rates)", 100.0), "turns": ("turns or decisions per game", 1.0),
         "cards": ("cards", 1.0), "times": ("times per game", 1.0), "options": ("options per decision", 1.0),
         "points": ("points", 1.0)}


def _difference_plot(rows: list[dict]) -> bytes:
    """Every figure's difference A - B, rows of one unit on one scale (a panel a unit): the unpaired interval in
    grey, the paired one inside it (red when it excludes 0), the difference as a dot; the figures in words."""
    import textwrap
    plt = _pyplot()
    shown = [r for r in rows if r["paired_games"] > 1]
    groups = [(unit, [r for r in shown if r["unit"] == unit]) for unit in UNITS]
    groups = [(unit, members) for unit, members in groups if members]
    heights = [0.34 * len(members) + 0.9 for _, members in groups]
    fig, axes = plt.subplots(len(groups), 1, figsize=(8.2, sum(heights) + 0.6), squeeze=False,
                             gridspec_kw={"height_ratios": heights})
    for ax, (unit, members) in zip(axes[:, 0], groups):
        words, factor = UNITS[unit]
        ys = list(range(len(members)))[::-1]
        for y, row in zip(ys, members):
            low, high = (factor * x for x in row["ci95"])
            ulow, uhigh = (factor * x for x in row["unpaired_ci95"])
            ax.plot([ulow, uhigh], [y, y], color=_GREY, linewidth=7, solid_capstyle="butt")
            ax.plot([low, high], [y, y], color=_RED if row["significant"] else _BLUE, linewidth=7,
                    solid_capstyle="butt")
            ax.plot([factor * row["difference"]], [y], "o", color="#1a202c", markersize=4)
        ax.axvline(0, color="#1a202c", linewidth=0.8)
        ax.set_yticks(ys)
        ax.set_yticklabels([textwrap.fill(row["words"], 58) for row in members], fontsize=7)
        ax.set_xlabel(f"A - B, in {words}", fontsize=8)
        ax.tick_params(axis="x", labelsize=8)
        ax.grid(axis="x", color="#e2e8f0")
        ax.set_axisbelow(True)
    axes[0, 0].set_title("A - B for every figure: the paired 95% interval (red: it excludes 0) inside the\n"
                         "interval two independent runs would give (grey); one scale per unit", fontsize=9)
    fig.tight_layout()
    return _png(fig)


def _sweep_plot(blocks: list[dict]) -> bytes:
    """A small chart a figure: its difference A - B (95% paired interval) at each point of the sweep."""
    import textwrap
    plt = _pyplot()
    points = [_point(b, blocks) for b in blocks]
    names = [r["figure"] for r in blocks[0]["figures"] if not r["figure"].startswith(
        ("seat_won:", "position_won:", "plays:", "restricted:"))]
    columns = 3
    rows_n = -(-len(names) // columns)
    fig, axes = plt.subplots(rows_n, columns, figsize=(9.6, 2.1 * rows_n), squeeze=False)
    for ax, name in zip(axes.flat, names):
        found = [next((r for r in b["figures"] if r["figure"] == name), None) for b in blocks]
        row0 = next(r for r in found if r is not None)
        words, factor = UNITS[row0["unit"]]
        for x, row in enumerate(found):
            if row is None:
                continue
            low, high = (factor * v for v in row["ci95"])
            ax.plot([x, x], [low, high], color=_RED if row["significant"] else _BLUE, linewidth=5,
                    solid_capstyle="butt")
            ax.plot([x], [factor * row["difference"]], "o", color="#1a202c", markersize=3)
        ax.axhline(0, color="#1a202c", linewidth=0.8)
        ax.set_xticks(range(len(points)))
        ax.set_xlim(-0.5, len(points) - 0.5)
        ax.set_xticklabels(points, fontsize=7)
        ax.set_title(textwrap.fill(row0["words"], 44), fontsize=7)
        ax.set_ylabel(textwrap.fill(f"A - B, {words}", 26), fontsize=6)
        ax.tick_params(axis="y", labelsize=7)
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    fig.suptitle("The sweep: A - B at each point (paired 95% interval; red: it excludes 0)", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    return _png(fig)


def _point(block: dict, blocks: list[dict]) -> str:
    """A sweep point's short name: the player count, the comparison, or both."""
    many_players = len({b["players"] for b in blocks}) > 1
    many_sides = len({b["a"] for b in blocks}) > 1
    side = block["a"].split(" with ", 1)[-1] if many_sides else ""
    if many_players and many_sides:
        return f"{block['players']}p {side}"
    return f"{block['players']} players" if many_players else side


_STYLE = """body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1a202c}
table{border-collapse:collapse;margin:1rem 0}td,th{padding:.25rem .6rem;border-bottom:1px solid #e2e8f0;
text-align:right}th:first-child,td:first-child{text-align:left}img{max-width:100%}.note{color:#4a5568}"""


def _table(head: list[str], rows: list[list]) -> tuple[str, str]:
    """The same table as HTML and as Markdown."""
    cells = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    md = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    md += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return f"<table><tr>{cells}</tr>{body}</table>", "\n".join(md)


def _page(title: str, parts: list, fmt: str, stem: str) -> dict[str, bytes]:
    """Assemble (kind, content) parts: ("p", text), ("table", (head, rows)), ("plot", (name, png))."""
    files: dict[str, bytes] = {}
    out_html = [f"<!doctype html><meta charset='utf-8'><title>{html.escape(title)}</title><style>{_STYLE}</style>",
                f"<h1>{html.escape(title)}</h1>"]
    out_md = [f"# {title}", ""]
    for kind, content in parts:
        if kind == "h2":
            out_html.append(f"<h2>{html.escape(content)}</h2>")
            out_md += [f"## {content}", ""]
        elif kind == "p":
            out_html.append(f"<p class='note'>{html.escape(content)}</p>")
            out_md += [content, ""]
        elif kind == "table":
            as_html, as_md = _table(*content)
            out_html.append(as_html)
            out_md += [as_md, ""]
        else:
            name, png = content
            data = base64.b64encode(png).decode()
            out_html.append(f"<img alt='{html.escape(name)}' src='data:image/png;base64,{data}'>")
            files[f"{stem}-{name}.png"] = png
            out_md += [f"![{name}]({stem}-{name}.png)", ""]
    if fmt == "html":
        return {f"{stem}.html": "\n".join(out_html).encode()}
    files[f"{stem}.md"] = "\n".join(out_md).encode()
    return files


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _interval(pair, fmt=_pct) -> str:
    return f"{fmt(pair[0])} .. {fmt(pair[1])}"


def docs_location() -> str:
    """Where the figures' definitions are: the wheel's copy of docs/analytics.md (unodsl/data/docs), else the
    source tree's (as source.catalog finds the shipped variants)."""
    from pathlib import Path
    here = Path(__file__).resolve().parent.parent          # unodsl/
    for page in (here / "data" / "docs" / "analytics.md", here.parent / "docs" / "analytics.md"):
        if page.is_file():
            return str(page)
    return "docs/analytics.md in the unodsl sources"


def _footer() -> tuple:
    return ("p", f"Every figure is defined, with its sources, in the analytics guide: {docs_location()}.")


def _words_table(rows: list) -> tuple:
    return ("table", (["figure", "value", "95% interval", "what it is"], rows))


def render_simulation(summary: dict, fmt: str, stem: str) -> dict[str, bytes]:
    """The files of a `simulate --report` page (`fmt`: "html" or "md"); `summary` as simulate --json gives it."""
    r = summary["report"]
    players = summary["players"]
    sides = len(r["by_team"]) or players
    first = r["first_player"]
    parts: list = [("p", f"{summary['games']:,} games of {summary['variant']}, {players} players, "
                          f"{summary['bots']} bots, seed {summary['seed']}.")]
    if r["truncated"]["games"]:
        parts.append(("p", f"{r['truncated']['games']:,} games ({_pct(r['truncated']['rate'])}) hit the turn "
                           f"limit: they are counted, and end without a winner or by the stall ruling."))
    parts += [
        ("h2", "Fairness"),
        ("table", (["figure", "value", "95% interval"], [
            ["first player's win rate", _pct(first["win_rate"]), _interval(first["ci95"])],
            ["fair share", _pct(first["fair"]), ""],
            ["first-player advantage", f"{first['advantage']:+.1%}", _interval(first["advantage_ci95"],
                                                                               lambda x: f"{x:+.1%}")]])),
        ("plot", ("positions", _rate_plot(r["by_position"], "position", "position after the first player "
                                          "(0 = the first player)", 1 / players, "Win rate by position"))),
    ]
    if r["by_team"]:
        parts.append(("plot", ("teams", _rate_plot(r["by_team"], "team", "team", 1 / sides, "Win rate by team"))))
    length = r["length"]
    two = lambda x: f"{x:.2f}"       # noqa: E731
    parts += [
        ("h2", "Length"),
        ("table", (["mean", "median", "p95", "max"],
                   [[f"{length['mean']:.1f}", length["median"], length["p95"], length["max"]]])),
        ("plot", ("length", _length_plot(r))),
        ("h2", "Tension: leads, snowball, decisiveness, drama"),
        ("plot", ("snowball", _snowball_plot(r))),
        _words_table(
            [[f"snowball at {row['at']}%", _pct(row["win_rate"]), _interval(row["ci95"]),
              f"the win rate of the player who alone holds the fewest cards at {row['at']}% of the game's turns "
              f"(fair share {row['fair']:.0%}; {row['games']:,} games had such a leader)"] for row in r["snowball"]]
            + [["decisiveness", _pct(r["decisiveness"]["mean"]), _interval(r["decisiveness"]["ci95"]),
                "the share of the game left once the winner leads alone for good (high: decided early)"],
               ["lead changes", two(r["lead_changes"]["mean"]), _interval(r["lead_changes"]["ci95"], two),
                "times per game a new player comes to hold the fewest cards alone"],
               ["drama", _pct(r["drama"]["mean"]), _interval(r["drama"]["ci95"]),
                "the share of the winner's decisions made while another player led alone (a comeback is near "
                "100%)"]]),
        ("h2", "Agency"),
        _words_table([
            ["real choices", _pct(r["agency"]["choice_share"]["mean"]), _interval(r["agency"]["choice_share"]["ci95"]),
             "the share of decisions with two distinct options or more (play X and play X with UNO count once)"],
            ["options", two(r["agency"]["options"]["mean"]), _interval(r["agency"]["options"]["ci95"], two),
             "distinct options per decision, on average"]]),
    ]
    if r["skill"] or r["luck"]:
        parts.append(("h2", "Skill and luck"))
    if r["skill"]:
        parts.append(_words_table([
            [f"skill gap: {row['strong']} among {row['weak']}", _pct(row["win_rate"]), _interval(row["ci95"]),
             f"the win rate of one {row['strong']} bot at a table of {row['weak']} bots, its seat turning "
             f"(fair share {row['fair']:.0%}; {row['games']:,} games): above the fair share, skill pays"]
            for row in r["skill"]]))
    if r["luck"]:
        luck = r["luck"]
        parts += [("plot", ("ladder", _ladder_plot(luck))),
                  ("p", f"Luck against skill, over {luck['games']:,} games with a bot of the ladder in each seat: "
                        f"the ratings' spread is {luck['spread']:.0f} Elo points, and the bots' strength explains "
                        f"{luck['explained']:.1%} of who wins (McFadden's pseudo-R²; the rest is luck). A rule "
                        f"that adds luck lowers both.")]
    parts += [
        ("h2", "Draws, hands and stacks"),
        _words_table([
            ["longest stack", two(r["stacks"]["mean"]), _interval(r["stacks"]["ci95"], two),
             "the largest number of cards owed by a stack's victim in a game"],
            ["reshuffles", two(r["reshuffles"]["mean"]), _interval(r["reshuffles"]["ci95"], two),
             "times per game the discard pile was shuffled into the draw pile"],
            ["largest hand", two(r["draws"]["largest_hand"]["mean"]), "", "the largest hand held in a game"],
            ["cards drawn per player", two(r["draws"]["per_player"]), "", "per game"],
            ["forced draws", two(r["draws"]["forced_per_game"]), "",
             "cards drawn per game other than by a player's own turn draw"]]),
        ("h2", "Stack chains"),
        ("p", _chains_note(r["stack_chains"])),
        ("table", (["length (draw cards)", "chains", "share"],
                   [[row["length"], f"{row['chains']:,}", _pct(row["chains"] / r["stack_chains"]["chains"])]
                    for row in r["stack_chains"]["histogram"]])),
        ("h2", "Cards"),
        ("plot", ("cards", _cards_plot(r["cards"]))),
    ]
    if r["restricted"]:
        parts.append(("plot", ("restricted", _restricted_plot(r["restricted"]))))
    parts += [
        ("table", (["card", "plays per game", "value when played (restricted play)", "won by its player, "
                    "against all cards", "next player's hand"],
                   [[c["card"], two(c["plays_per_game"]),
                     "" if c["value"] is None else f"{100 * c['value']:+.1f} points "
                     f"[{100 * c['value_ci95'][0]:+.1f}, {100 * c['value_ci95'][1]:+.1f}]",
                     f"{c['lift']:.2f}x", f"{c['next_hand_change']:+.2f}"] for c in r["cards"]])),
        ("p", "Value when played: the win rate a player loses when they may never play the card (but as their last "
              "card), against the same bot in the same deals: the card's worth, measured causally. Won by its "
              "player, against all cards: the share of the card's plays made by the game's winner, over the "
              f"winner's share of all plays ({_pct(r['winners_share_of_plays'])}): winners play more cards, so "
              "the raw share is above the fair share for every card, and only this ratio compares cards; it is "
              "still a correlation, not an effect."),
    ]
    others = [row for row in r["restricted"] if not row["restriction"].startswith("card:")]
    if others:
        parts.append(_words_table([[f"never {row['words']}", f"{100 * row['value']:+.1f} points",
                                    _interval(row["ci95"], lambda x: f"{100 * x:+.1f}"),
                                    f"win rate {_pct(row['win_rate'])} restricted, "
                                    f"{_pct(row['unrestricted_win_rate'])} not"] for row in others]))
    parts.append(_footer())
    return _page(f"{summary['variant']}: simulation report", parts, fmt, stem)


def _chains_note(chains: dict) -> str:
    if not chains["chains"]:
        return "No draw card was played."
    return (f"{chains['chains']:,} chains ({chains['per_game']:.2f} per game): mean length {chains['mean']:.2f}, "
            f"median {chains['median']}, p95 {chains['p95']}, longest {chains['max']}. A chain is a run of draw "
            f"cards, each played on the one before it, that ends when someone draws.")


def _comparison_parts(header: dict, rows: list[dict], name: str) -> list:
    return [
        ("p", f"A = {header['a']}, B = {header['b']}: {header['games']:,} games each on the same seeds, "
              f"{header['players']} players, {header['bots']} bots, seed {header['seed']}."),
        ("plot", (name, _difference_plot(rows))),
        ("table", (["figure", "A", "B", "A - B", "paired 95%", "unpaired 95%", "games saved"], [
            [r["words"], f"{r['a']:.3f}", f"{r['b']:.3f}", f"{r['difference']:+.3f}",
             _interval(r["ci95"], lambda x: f"{x:+.3f}"), _interval(r["unpaired_ci95"], lambda x: f"{x:+.3f}"),
             "" if r["games_saved"] is None else f"{r['games_saved']:.1f}x"] for r in rows])),
        ("p", "Shares and win rates are from 0 to 1 in the table, in percentage points in the plot. Games saved: "
              "how many times more games two independent runs would need for the paired interval's width."),
    ]


def render_comparison(header: dict, rows: list[dict], fmt: str, stem: str) -> dict[str, bytes]:
    """The files of a `compare --report` page; `header` names A and B, the games, players, bots and seed."""
    parts = _comparison_parts(header, rows, "differences") + [_footer()]
    return _page(f"{header['a']} against {header['b']}", parts, fmt, stem)


def render_comparisons(blocks: list[dict], fmt: str, stem: str) -> dict[str, bytes]:
    """The page of a comparison, or of a sweep (several blocks: a section each and the sweep's plot first)."""
    if len(blocks) == 1:
        block = blocks[0]
        return render_comparison(block, block["figures"], fmt, stem)
    parts: list = [("p", f"B = {blocks[0]['b']}; each point compares A with B on the same seeds."),
                   ("plot", ("sweep", _sweep_plot(blocks)))]
    for i, block in enumerate(blocks, 1):
        parts.append(("h2", f"{block['players']} players: {block['a']}"))
        parts += _comparison_parts(block, block["figures"], f"differences-{i}")
    parts.append(_footer())
    return _page(f"Sweep against {blocks[0]['b']}", parts, fmt, stem)


_STATUS_COLOURS = {"ok": "#c6f6d5", "interaction": "#faf089", "stall": "#f6ad55", "broken invariant": "#6b46c1",
                   "conflict": "#c53030"}


def _audit_matrix(rules: list[str], rows: list[dict]) -> bytes:
    """A square of the house rules: each pair's cell coloured by its status (a single rule's on the diagonal),
    the number of interacting figures written in it."""
    import matplotlib.colors as mcolors
    from matplotlib.patches import Patch
    plt = _pyplot()
    index = {rule: i for i, rule in enumerate(rules)}
    statuses = list(_STATUS_COLOURS)
    grid = [[-1] * len(rules) for _ in rules]
    fig, ax = plt.subplots(figsize=(0.42 * len(rules) + 3.2, 0.42 * len(rules) + 2.2))
    for row in rows:
        if len(row["rules"]) > 2:
            continue
        i, j = index[row["rules"][0]], index[row["rules"][-1]]
        code = statuses.index(row["status"])
        grid[i][j] = grid[j][i] = code
        if row["status"] == "interaction":
            for x, y in {(i, j), (j, i)}:
                ax.text(x, y, str(len(row["interactions"])), ha="center", va="center", fontsize=7)
    cmap = mcolors.ListedColormap(["#ffffff", *_STATUS_COLOURS.values()])
    ax.imshow([[c + 1 for c in line] for line in grid], cmap=cmap, vmin=0, vmax=len(statuses))
    ax.set_xticks(range(len(rules)))
    ax.set_xticklabels(rules, rotation=90, fontsize=8)
    ax.set_yticks(range(len(rules)))
    ax.set_yticklabels(rules, fontsize=8)
    ax.set_xlabel("house rule")
    ax.set_ylabel("house rule")
    ax.set_title("Each pair of house rules over the base (a rule alone on the diagonal);\n"
                 "in a yellow cell, the number of figures whose effects do not add up", fontsize=9)
    ax.legend(handles=[Patch(color=c, label=s) for s, c in _STATUS_COLOURS.items()], loc="upper left",
              bbox_to_anchor=(1.02, 1), frameon=False, fontsize=8)
    return _png(fig)


def render_audit(header: dict, rows: list[dict], fmt: str, stem: str) -> dict[str, bytes]:
    """The files of an `audit --report` page: the square of pairs, the table, and each finding in words."""
    parts: list = [("p", f"{len(header['rules'])} house rules over {header['variant']}, {header['players']} "
                         f"players: every {'pair and triple' if header['size'] == 3 else 'pair'}, "
                         f"{header['games']} heuristic games and {header['fuzz_games']} random-bot games each, "
                         f"seed {header['seed']}."),
                   ("plot", ("pairs", _audit_matrix(header["rules"], rows))),
                   ("h2", "Every combination"),
                   ("table", (["house rules", "status", "stalls (heuristic)", "stalls (random)", "what"], [
                       [" + ".join(r["rules"]), r["status"],
                        f"{r['heuristic_stalls']}/{r['heuristic_games']}" if r["heuristic_games"] else "",
                        f"{r['random_stalls']}/{r['random_games']}" if r["random_games"] else "",
                        "; ".join(r["conflicts"] or r["broken"] or [
                            f"{i['words']}: {i['interaction']:+.3g} [{i['interval'][0]:+.3g}, {i['interval'][1]:+.3g}]"
                            for i in r["interactions"]])] for r in rows]))]
    parts += [
        ("p", "conflict: check refuses the combination (the diagnostic is shown). stall: a heuristic game ended by "
              "the stall ruling, or a game not over after 60,000 decisions. broken invariant: in random-bot games "
              "checked after every action, the engine raised, offered no action, disagreed with its reference "
              "mode, or a saved or replayed game came back different. interaction: the combination's effect on "
              "a figure, against the base, differs from the sum of its rules' own effects (per game, paired on "
              "the same seeds), beyond an interval corrected for the number of figures tested. Random bots play "
              "long games, so their stalls are shown but not flagged."),
        _footer(),
    ]
    return _page(f"Audit of house rules over {header['variant']}", parts, fmt, stem)
