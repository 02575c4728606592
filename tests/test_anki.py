"""The deck for Anki (issue 26, :mod:`trainer.anki`): 400 notes with stable ids, the Map cards as
media, read back from the package as Anki reads it (its zip: the SQLite collection, the media map
and the files)."""

from __future__ import annotations

import io
import json
import sqlite3
import zipfile
from pathlib import Path

import pytest

from trainer import anki
from trainer.cards import load_deck
from trainer.facts import Facet

DECK = load_deck()


def fake_maps() -> dict[str, str]:
    return {
        state.postal: f'<svg xmlns="http://www.w3.org/2000/svg"><title>{state.postal}</title></svg>'
        for state in DECK
    }


def read_package(
    data: bytes, tmp_path: Path
) -> tuple[list[tuple], dict[str, str], zipfile.ZipFile]:
    """The package's notes (guid, fields, tags), its media map and its zip."""
    package = zipfile.ZipFile(io.BytesIO(data))
    collection = tmp_path / "collection.anki2"
    collection.write_bytes(package.read("collection.anki2"))
    with sqlite3.connect(collection) as db:
        notes = db.execute("SELECT guid, flds, tags, mid FROM notes ORDER BY id").fetchall()
        models = json.loads(db.execute("SELECT models FROM col").fetchone()[0])
        decks = json.loads(db.execute("SELECT decks FROM col").fetchone()[0])
    assert str(anki.MODEL_ID) in models and str(anki.DECK_ID) in decks
    return notes, json.loads(package.read("media")), package


def build(timestamp: float) -> bytes:
    out = io.BytesIO()
    anki.write_package(DECK, fake_maps(), out, timestamp=timestamp)
    return out.getvalue()


def test_400_notes_with_the_map_cards_as_media(tmp_path):
    notes, media, package = read_package(build(1_700_000_000), tmp_path)
    assert len(notes) == 400
    assert sorted(media.values()) == sorted(anki.map_file(s.postal) for s in DECK)
    for index, name in media.items():
        assert package.read(index).decode().startswith("<svg")
        assert name.startswith("geoplunge-map-")
    # Every map a note shows is a file of the package.
    shown = {f for _g, flds, _t, _m in notes for f in media.values() if f'src="{f}"' in flds}
    assert shown == set(media.values())
    # Deflated: the maps are text.
    assert all(e.compress_type == zipfile.ZIP_DEFLATED for e in package.infolist())


def test_a_note_is_its_fact_question_and_answer(tmp_path):
    notes, _media, _package = read_package(build(1_700_000_000), tmp_path)
    by_key = {flds.split("\x1f")[0]: (flds.split("\x1f"), tags) for _g, flds, tags, _m in notes}
    fields, tags = by_key["CO:capital"]
    assert dict(zip(anki.FIELDS, fields, strict=True)) == {
        "Fact": "CO:capital",
        "Question": "What is the capital of Colorado?",
        "Front map": "",
        "Answer": "Denver",
        "Back map": '<img src="geoplunge-map-CO.svg" alt="Colorado in red on the map">',
        "Card": fields[5],
    }
    assert "Denver" in fields[5] and "geoplunge::capital" in tags.split()
    # A map fact asks with the map on the front, whose description does not name the state.
    fields, _tags = by_key["CO:map"]
    assert fields[1] == "Which state is red on this map?" and fields[3] == "Colorado"
    assert "Colorado" not in fields[2] and 'src="geoplunge-map-CO.svg"' in fields[2]
    assert fields[4] == ""


def test_a_second_download_updates_the_same_notes(tmp_path):
    """Anki matches an imported note by guid: the same facts give the same guids, whenever the
    package is made, and every guid is a fact's own."""
    first, _m, _p = read_package(build(1_700_000_000), tmp_path)
    second, _m, _p = read_package(build(1_800_000_000), tmp_path)
    assert [n[0] for n in first] == [n[0] for n in second]
    assert len({n[0] for n in first}) == 400
    assert anki.guid("CO:capital") == anki.guid("CO:capital") != anki.guid("CO:map")


def test_fields_are_escaped():
    facts = anki.facts(DECK)
    assert len(facts) == 400 and {f.facet for f in facts} == set(Facet)
    note = next(n for n in anki.notes(DECK) if n.fields[0] == "WY:borders")
    assert "<" not in note.fields[1] and "<" not in note.fields[3]


def test_a_state_without_its_map_is_refused():
    maps = fake_maps()
    del maps["RI"]
    with pytest.raises(ValueError, match="RI"):
        anki.write_package(DECK, maps, io.BytesIO())


def test_the_csv_rows_are_the_same_facts():
    rows = list(anki.csv_rows(DECK))
    assert rows[0] == anki.CSV_HEADER and len(rows) == 401
    assert (
        "CO:capital",
        "Colorado",
        "CO",
        "Capital",
        "What is the capital of Colorado?",
        "Denver",
    ) in rows
