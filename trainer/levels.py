"""How strong the computer is: one level scale for every mode (card games, races, State IQ)."""

from __future__ import annotations

from enum import Enum


class Level(str, Enum):
    """How strong (fast, careful, knowing) the computer players or team are."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"

    @property
    def label(self) -> str:
        """How the card games' level choice names this level."""
        return {
            "easy": "Easy (plays any card)",
            "medium": "Medium (plays sensibly)",
            "hard": "Hard (thinks ahead)",
        }[self.value]

    @property
    def recall(self) -> float:
        """State IQ: the chance the computer remembers each fact it needs (hard: it knows them all)."""
        return {"easy": 0.45, "medium": 0.75, "hard": 1.0}[self.value]


__all__ = ["Level"]
