"""The deck for Anki (issue 26): the 400 facts as an Anki package (``.apkg``) and as plain rows.

Each fact is one note of the package's own note type: the question as the app asks it typed
(:func:`trainer.facts.ask`), the answer as the app shows it (:func:`trainer.facts.expected_answer`),
and the state's Map card: on the front of a map fact ("Which state is red on this map?"), on the
back of every other fact (where the state is). The package is made with genanki, Anki's own
format as a well-kept library writes it.

Stable ids, so a second download updates the notes a student has instead of adding 400 more: the
note type's and the deck's ids are fixed numbers (:data:`MODEL_ID`, :data:`DECK_ID`), and a note's
guid is derived from its fact key alone (``CO:capital``), never from its wording. Anki matches an
imported note to the one it has by guid, and updates its fields when the note type is the same.

The Map card pictures come from the caller (``map_svgs``: postal code -> SVG text), since the web
layer draws them with the site's own map; here they are only files of the package. Pure Python.
"""

from __future__ import annotations

import html
import io
import random
import tempfile
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import genanki

from .cards import Deck
from .facts import Facet, Form, all_facts, ask, expected_answer

#: The note type's id: fixed forever (Anki keys note types by id; a new one would duplicate).
MODEL_ID = 1_735_902_611
#: The deck's id: fixed forever, for the same reason.
DECK_ID = 1_735_902_612
DECK_NAME = "GeoPlunge: the 50 states"
#: What every note's guid is derived from, with its fact key: change it and every note is new.
GUID_SPACE = "geoplunge-trainer"

FIELDS = ("Fact", "Question", "Front map", "Answer", "Back map", "Card")

#: Facet words for tags and the CSV (a tag may not hold spaces).
FACET_WORDS: dict[Facet, str] = {
    Facet.MAP: "Map",
    Facet.CAPITAL: "Capital",
    Facet.POSTAL: "Postal code",
    Facet.BORDERS: "Borders",
    Facet.SIZE: "Size rank",
    Facet.STATEHOOD: "Statehood rank",
    Facet.POPULATION: "Population rank",
    Facet.ZONE: "Time zone",
}

CREDIT = (
    "The facts of the GeoPlunge cards. GeoPlunge, Border-Up, State IQ, Dashing States, Play the "
    "Ranks, GeoPower Toss, GeoClash Down Back and Geography War are card games of LearningPlunge, "
    "whose names are their trademarks; GeoPlunge Trainer is an independent study aid. Figures: "
    "2010 US Census; map: US Census Bureau boundaries."
)

CSS = """\
.card { font-family: system-ui, sans-serif; font-size: 22px; text-align: center;
  color: #1a2b48; background: #ffffff; }
.gp-map { max-width: 560px; margin: 0.5em auto; }
.gp-map img { width: 100%; height: auto; }
.gp-card { font-size: 15px; color: #4a5568; }
.nightMode .card, .night_mode .card { color: #f1f5fb; background: #1e1e1e; }
"""

FRONT = """<div class="gp-question">{{Question}}</div>
{{#Front map}}<div class="gp-map">{{Front map}}</div>{{/Front map}}"""
BACK = """{{FrontSide}}
<hr id="answer">
<div class="gp-answer"><strong>{{Answer}}</strong></div>
{{#Back map}}<div class="gp-map">{{Back map}}</div>{{/Back map}}
<p class="gp-card">{{Card}}</p>"""


@dataclass(frozen=True)
class AnkiFact:
    """One fact as a note (and a CSV row): plain text, escaped only when it becomes a field."""

    key: str
    state: str
    postal: str
    facet: Facet
    question: str
    answer: str
    card: str

    @property
    def tags(self) -> list[str]:
        return ["geoplunge", f"geoplunge::{self.facet.value}", f"geoplunge::state::{self.postal}"]


def map_file(postal: str) -> str:
    """The media file name of a state's Map card (names are global in a student's collection,
    so the prefix keeps them apart from other decks')."""
    return f"geoplunge-map-{postal}.svg"


def _card_line(deck: Deck, postal: str) -> str:
    state = deck[postal]
    return (
        f"{state.name} · capital {state.capital} · {state.postal} · {state.zone.value} · "
        f"size {state.size_rank}, statehood {state.statehood_rank}, "
        f"population {state.population_rank} of 50"
    )


def facts(deck: Deck) -> list[AnkiFact]:
    """The 400 facts, by state, then facet (as :func:`trainer.facts.all_facts` lists them)."""
    rng = random.Random(0)  # typed questions draw nothing; the generator is only the signature's
    found = []
    for fact in all_facts(deck):
        question = ask(fact, Form.TYPED, deck, rng)
        state = deck[fact.postal]
        found.append(
            AnkiFact(
                key=fact.key,
                state=state.name,
                postal=state.postal,
                facet=fact.facet,
                question=question.prompt,
                answer=expected_answer(fact, deck),
                card=_card_line(deck, fact.postal),
            )
        )
    return found


def guid(fact_key: str) -> str:
    """A note's guid: from its fact key alone, so it is the same in every download."""
    return str(genanki.guid_for(GUID_SPACE, fact_key))


def _model() -> genanki.Model:
    return genanki.Model(
        MODEL_ID,
        "GeoPlunge fact",
        fields=[{"name": name} for name in FIELDS],
        templates=[{"name": "Question first", "qfmt": FRONT, "afmt": BACK}],
        css=CSS,
    )


def _image(postal: str, state_name: str, front: bool) -> str:
    alt = "A map of the 50 states with one in red" if front else f"{state_name} in red on the map"
    return f'<img src="{map_file(postal)}" alt="{html.escape(alt)}">'


def notes(deck: Deck) -> list[genanki.Note]:
    """The package's notes, one per fact, each with its stable guid."""
    model = _model()
    made = []
    for fact in facts(deck):
        on_front = fact.facet is Facet.MAP
        made.append(
            genanki.Note(
                model=model,
                fields=[
                    fact.key,
                    html.escape(fact.question),
                    _image(fact.postal, fact.state, front=True) if on_front else "",
                    html.escape(fact.answer),
                    "" if on_front else _image(fact.postal, fact.state, front=False),
                    html.escape(fact.card),
                ],
                tags=fact.tags,
                guid=guid(fact.key),
            )
        )
    return made


def write_package(
    deck: Deck, map_svgs: Mapping[str, str], out: BinaryIO, timestamp: float | None = None
) -> None:
    """Write the package to ``out``: :data:`DECK_NAME` with the 400 notes and the 50 Map cards.

    Raises:
        ValueError: a state of the deck has no Map card in ``map_svgs``.
    """
    missing = sorted({s.postal for s in deck} - set(map_svgs))
    if missing:
        raise ValueError(f"no Map card drawn for {', '.join(missing)}")
    anki_deck = genanki.Deck(DECK_ID, DECK_NAME, description=html.escape(CREDIT))
    for note in notes(deck):
        anki_deck.add_note(note)
    with tempfile.TemporaryDirectory(prefix="geoplunge-anki-") as tmp:
        media = []
        for postal in sorted(map_svgs):
            path = Path(tmp) / map_file(postal)
            path.write_text(map_svgs[postal], encoding="utf-8")
            media.append(str(path))
        package = genanki.Package(anki_deck, media_files=media)
        stored = io.BytesIO()
        package.write_to_file(stored, timestamp=timestamp)
    # genanki stores its files uncompressed; the maps shrink to a third deflated (Anki reads both).
    with (
        zipfile.ZipFile(stored) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zipped,
    ):
        for entry in source.infolist():
            zipped.writestr(entry.filename, source.read(entry))


CSV_HEADER = ("fact", "state", "postal code", "what", "question", "answer")


def csv_rows(deck: Deck) -> Iterable[tuple[str, ...]]:
    """The facts as rows for a CSV file (header first): words a person reads, the key to match."""
    yield CSV_HEADER
    for fact in facts(deck):
        yield (
            fact.key,
            fact.state,
            fact.postal,
            FACET_WORDS[fact.facet],
            fact.question,
            fact.answer,
        )
