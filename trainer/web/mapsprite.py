"""The 50 outlines as one SVG file, cached by the browser, for the maps that name their states.

A page with a map used to carry all 50 outlines (60 KB of path data, 20 KB gzipped): the study
home's streak map, a fact's card after the answer, the deck, State IQ's map, Border-Up's, the
dashboards' mastery map and the album. Those maps now draw each state with
``<use href="/deck/map-<hash>.svg#s7">``: the file holds every outline once, named by its place
from west to east (not by its postal code, so a page's text names no state by it), with no style
of its own (the page's classes set fill and stroke on each ``<use>``, and the
outline inherits them). Its URL names a hash of its bytes, so it is kept for a year and fetched
again only when the map changes (issue 25).

Maps that must not name their states before the answer (a question's Map card, "find Colorado",
Dashing States' cards: ruling P-H2) never refer to this file: their outlines are numbered afresh
and drawn through their own stretch in the page, as before.
"""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass
from functools import lru_cache
from xml.sax.saxutils import quoteattr

from trainer.cards import Deck

#: Hex digits of the hash in the URL.
DIGITS = 10


@dataclass(frozen=True)
class Sprite:
    """The file as sent: its bytes, gzipped, and the hash its URL names."""

    raw: bytes
    packed: bytes
    digest: str
    #: Each postal code's id in the file.
    ids: dict[str, str]


@lru_cache(maxsize=4)
def sprite_of(deck: Deck) -> Sprite:
    """The outlines of ``deck``'s map as one SVG file (made once per deck)."""
    geometry = deck.geometry
    ids = {postal: f"s{n}" for n, postal in enumerate(geometry.west_to_east())}
    paths = "".join(
        f"<path id={quoteattr(ids[postal])} d={quoteattr(geometry.shapes[postal].path)}/>"
        for postal in geometry.west_to_east()
    )
    text = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox='
        f"{quoteattr(geometry.view_box)}><defs>{paths}</defs></svg>\n"
    )
    raw = text.encode("utf-8")
    return Sprite(
        raw=raw,
        packed=gzip.compress(raw, compresslevel=9, mtime=0),
        digest=hashlib.sha256(raw).hexdigest()[:DIGITS],
        ids=ids,
    )


@dataclass(frozen=True)
class SpriteLinks:
    """What a template draws with: ``href(postal)`` is the URL of that state's outline."""

    url: str
    ids: dict[str, str]

    def href(self, postal: str) -> str:
        return f"{self.url}#{self.ids[postal]}"
