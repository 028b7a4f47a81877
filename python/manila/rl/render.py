"""The text rendering both environments offer (Gymnasium's and PettingZoo's render modes)."""

from __future__ import annotations

from typing import Optional

from ..game.engine import State

# A tuple: each environment copies it into its own metadata, which users may change.
RENDER_MODES = ("ansi", "human")


def check_render_mode(render_mode: Optional[str]) -> Optional[str]:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(
            f"render_mode: one of {', '.join(map(repr, RENDER_MODES))} or None, got {render_mode!r}"
        )
    return render_mode


def render_text(state: Optional[State], render_mode: Optional[str]) -> Optional[str]:
    """The whole table as text: returned ("ansi"), printed ("human"), or nothing (None)."""
    if render_mode is None or state is None:
        return None
    text = state.to_string()
    if render_mode == "human":
        print(text)
        return None
    return text
