"""A seat's position in words: the terminal's screen (narration.screen_lines) as one text, and the rulebook by section.

Built only from what the seat may see: its observation (`State.observation`) and its events
(`State.events_for`), read through `agents.seats.AgentView`. By default no list of legal actions is
given (a reader must know the rules); `legal=True` adds it, numbered, in the order the terminal
offers them.
"""

from __future__ import annotations

from ..agents.seats import AgentView
from ..rulebook.document import render_rulebook
from ..rulebook.narration import hands_seen, narrate, order_choices, screen_lines


def view(state, seat: int, *, since: int = 0, legal: bool = False, previous_hand: list[str] | None = None) -> str:
    """What `seat` may see now, in words: the heading, what happened since event `since` (State.events
    index; 0: from the start), the top card and color, the order, the piles, every player's hand size,
    the declared variables it may see, what was shown to it, its hand, and the decision pending (its own,
    or who is deciding). With `legal`, the legal actions, numbered."""
    return render(AgentView(state, seat=seat, since=since), legal=legal, previous_hand=previous_hand)


def render(seat_view: AgentView, *, legal: bool = False, previous_hand: list[str] | None = None) -> str:
    """`view` from an agent's view (what a seat is handed when it decides)."""
    events = narrate(seat_view.events, seat_view.seat, seat_view.game)
    choices = order_choices(seat_view.legal_actions) if legal and seat_view.legal else None
    seen_at = hands_seen(seat_view.events_since(0), seat_view.seat) if seat_view.observation.get("revealed") else {}
    return "\n".join(screen_lines(seat_view.game, seat_view.observation, events, choices, previous_hand,
                                  seen_at=seen_at))


def rulebook_sections(game) -> dict[str, str]:
    """The generated rulebook (Markdown) by its top sections ('Players', 'The deck', 'A turn', ...), in order."""
    sections: dict[str, str] = {}
    title = ""
    for line in render_rulebook(game, "markdown").splitlines(keepends=True):
        if line.startswith("## "):
            title = line[3:].strip()
        sections[title] = sections.get(title, "") + line
    return sections


def rulebook_section(game, section: str | None = None) -> str:
    """The whole rulebook (None), or the section whose title is `section` (case and spaces aside);
    KeyError names the sections when there is none such."""
    sections = rulebook_sections(game)
    if not section:
        return "".join(sections.values())
    wanted = " ".join(section.lower().split())
    for title, text in sections.items():
        if title and title.lower() == wanted:
            return text
    raise KeyError(f"no section '{section}' (the sections: {', '.join(t for t in sections if t)})")
