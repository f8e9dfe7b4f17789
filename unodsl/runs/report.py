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
        ax.text(card["plays_per_game"], y, f"  won {card['win_rate']:.0%}, next hand {card['next_hand_change']:+.2f}",
                va="center", fontsize=8)
    ax.set_xlabel("plays per game")
    ax.set_title("Cards")
    ax.margins(x=0.45)
    return _png(fig)


def _difference_plot(rows: list[dict]) -> bytes:
    """One row a figure, each on its own scale (the figures have different units): the unpaired interval
    in grey, the paired one inside it (red when it excludes 0), the difference as a dot, and the numbers."""
    plt = _pyplot()
    shown = [r for r in rows if r["paired_games"] > 1]
    fig, axes = plt.subplots(len(shown), 1, figsize=(7.2, 0.42 * len(shown) + 0.6), squeeze=False)
    for ax, row in zip(axes[:, 0], shown):
        low, high = row["ci95"]
        ulow, uhigh = row["unpaired_ci95"]
        span = max(abs(ulow), abs(uhigh), abs(low), abs(high)) or 1.0
        ax.plot([ulow, uhigh], [0, 0], color=_GREY, linewidth=7, solid_capstyle="butt")
        ax.plot([low, high], [0, 0], color=_RED if row["significant"] else _BLUE, linewidth=7,
                solid_capstyle="butt")
        ax.plot([row["difference"]], [0], "o", color="#1a202c", markersize=4)
        ax.axvline(0, color="#1a202c", linewidth=0.8)
        ax.set_xlim(-span * 1.15, span * 1.15)
        ax.set_xticks([])
        ax.set_yticks([])
        for side in ("top", "right", "left", "bottom"):
            ax.spines[side].set_visible(False)
        ax.text(-span * 1.2, 0, row["figure"], ha="right", va="center", fontsize=8)
        ax.text(span * 1.2, 0, f"{row['difference']:+.3g}  [{low:+.3g}, {high:+.3g}]", ha="left", va="center",
                fontsize=8)
    axes[0, 0].set_title("A - B, each figure on its own scale: paired 95% interval (colour; red: excludes 0)\n"
                         "inside the unpaired one (grey)", fontsize=9)
    return _png(fig)


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
    parts += [
        ("h2", "Length"),
        ("table", (["mean", "median", "p95", "max"],
                   [[f"{length['mean']:.1f}", length["median"], length["p95"], length["max"]]])),
        ("plot", ("length", _length_plot(r))),
        ("h2", "Draws, hands, stacks and drama"),
        ("table", (["figure", "mean per game", "95% interval"], [
            [name, f"{r[key]['mean']:.2f}", _interval(r[key]["ci95"], lambda x: f"{x:.2f}")]
            for name, key in (("longest stack", "stacks"), ("reshuffles", "reshuffles"),
                              ("lead changes", "lead_changes"), ("drama", "drama"))
        ] + [["largest hand", f"{r['draws']['largest_hand']['mean']:.2f}", ""],
             ["cards drawn per player", f"{r['draws']['per_player']:.2f}", ""],
             ["forced draws", f"{r['draws']['forced_per_game']:.2f}", ""]])),
        ("h2", "Stack chains"),
        ("p", _chains_note(r["stack_chains"])),
        ("table", (["length (draw cards)", "chains", "share"],
                   [[row["length"], f"{row['chains']:,}", _pct(row["chains"] / r["stack_chains"]["chains"])]
                    for row in r["stack_chains"]["histogram"]])),
        ("h2", "Cards"),
        ("plot", ("cards", _cards_plot(r["cards"]))),
        ("table", (["card", "plays per game", "won by its player", "next player's hand"],
                   [[c["card"], f"{c['plays_per_game']:.2f}", _pct(c["win_rate"]), f"{c['next_hand_change']:+.2f}"]
                    for c in r["cards"]])),
        ("p", "Every figure is defined in docs/analytics.md."),
    ]
    return _page(f"{summary['variant']}: simulation report", parts, fmt, stem)


def _chains_note(chains: dict) -> str:
    if not chains["chains"]:
        return "No draw card was played."
    return (f"{chains['chains']:,} chains ({chains['per_game']:.2f} per game): mean length {chains['mean']:.2f}, "
            f"median {chains['median']}, p95 {chains['p95']}, longest {chains['max']}. A chain is a run of draw "
            f"cards, each played on the one before it, that ends when someone draws.")


def render_comparison(header: dict, rows: list[dict], fmt: str, stem: str) -> dict[str, bytes]:
    """The files of a `compare --report` page; `header` names A and B, the games, players, bots and seed."""
    parts: list = [
        ("p", f"A = {header['a']}, B = {header['b']}: {header['games']:,} games each on the same seeds, "
              f"{header['players']} players, {header['bots']} bots, seed {header['seed']}."),
        ("plot", ("differences", _difference_plot(rows))),
        ("table", (["figure", "A", "B", "A - B", "paired 95%", "unpaired 95%", "games saved"], [
            [r["figure"], f"{r['a']:.3f}", f"{r['b']:.3f}", f"{r['difference']:+.3f}",
             _interval(r["ci95"], lambda x: f"{x:+.3f}"), _interval(r["unpaired_ci95"], lambda x: f"{x:+.3f}"),
             "" if r["games_saved"] is None else f"{r['games_saved']:.1f}x"] for r in rows])),
        ("p", "games saved: how many times more games two independent runs would need for the paired "
              "interval's width. docs/analytics.md defines every figure."),
    ]
    return _page(f"{header['a']} against {header['b']}", parts, fmt, stem)
