"""The deck refuses broken data and names the row (the app then refuses to start)."""

from __future__ import annotations

import csv
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.cards import DATA_DIR, DeckError, load_deck

FILES = ("states.csv", "borders.csv", "power_cards.csv", "map_paths.json", "regions.csv")


def copy_data(target: Path) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        shutil.copy(DATA_DIR / name, target / name)
    return target


def read_rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        return list(reader.fieldnames or []), list(reader)


def write_rows(path: Path, header: list[str], rows: list[dict[str, str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=header, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def edit_row(path: Path, column: str, value: str, **changes: str) -> int:
    """Change the row of ``path`` whose ``column`` is ``value``; return its line number."""
    header, rows = read_rows(path)
    for index, row in enumerate(rows):
        if row[column] == value:
            row.update(changes)
            write_rows(path, header, rows)
            return index + 2
    raise AssertionError(value)


def edit_state(data: Path, name: str, **changes: str) -> int:
    """Change one state's row; return its line number in the file."""
    return edit_row(data / "states.csv", "name", name, **changes)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return copy_data(tmp_path / "data")


def test_shipped_data_loads():
    deck = load_deck()
    assert len(deck) == 50


@pytest.mark.parametrize(
    ("state", "changes", "message"),
    [
        ("Colorado", {"size_rank": "9"}, "size_rank 9 is also given to"),
        ("Colorado", {"time_zone": "Rocky"}, "time_zone 'Rocky' is not one of"),
        ("Colorado", {"postal": "Co"}, "not two capital letters"),
        ("Colorado", {"capital": ""}, "capital is empty"),
        ("Colorado", {"population_2010": "lots"}, "population_2010 'lots' is not a whole number"),
        ("Colorado", {"statehood_date": "1876-13-01"}, "not an ISO date"),
        ("Colorado", {"size_rank": "51"}, "size_rank 51 is not between 1 and 50"),
        ("Colorado", {"secondary_zones": "Mountain"}, "secondary_zones repeats a zone"),
        (
            "Colorado",
            {"capital": "Boston"},
            "(Massachusetts): capital 'Boston' repeats line 7 (Colorado)",
        ),
        # A figure that no longer matches its rank: Colorado's land area made smaller than Wyoming's.
        (
            "Colorado",
            {"land_area_sq_mi": "1000"},
            "(Colorado): size_rank 8 is better than Wyoming's 9 (states.csv line 51), but its land_area_sq_mi 1000.0 does not rank it ahead of 97093",
        ),
        (
            "California",
            {"population_2010": "100"},
            "(California): population_rank 1 is better than Texas's 2",
        ),
        (
            "Hawaii",
            {"statehood_date": "1776-07-04"},
            "(Alaska): statehood_rank 49 is better than Hawaii's 50",
        ),
    ],
)
def test_bad_state_rows_are_named(data, state, changes, message):
    line = edit_state(data, state, **changes)
    with pytest.raises(DeckError) as error:
        load_deck(data)
    text = str(error.value)
    assert message in text
    assert text.startswith("states.csv line ")
    # The broken row is named (with the row it clashes with, where there is one).
    assert re.search(rf"line {line}\b", text) or "also given to" in text


def test_missing_row(data):
    header, rows = read_rows(data / "states.csv")
    write_rows(data / "states.csv", header, rows[:-1])
    with pytest.raises(DeckError, match="49 rows, expected 50"):
        load_deck(data)


def test_wrong_header(data):
    text = (data / "states.csv").read_text().replace("population_rank", "pop_rank", 1)
    (data / "states.csv").write_text(text)
    with pytest.raises(
        DeckError,
        match=r"states.csv line 1: header .* \(missing: population_rank\) \(unknown: pop_rank\)",
    ):
        load_deck(data)


def test_missing_file(data):
    (data / "borders.csv").unlink()
    with pytest.raises(DeckError, match="borders.csv: file not found"):
        load_deck(data)


def append_border(data: Path, a: str, b: str) -> int:
    path = data / "borders.csv"
    lines = path.read_text().splitlines()
    lines.append(f"{a},{b}")
    path.write_text("\n".join(lines) + "\n")
    return len(lines)


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        ("CO", "ZZ", "'ZZ' is not a state's postal code"),
        ("CO", "CO", "cannot border itself"),
        ("UT", "CO", "state_a before state_b"),
        ("AK", "WA", "AK borders no state (G5)"),
        ("CA", "HI", "HI borders no state (G5)"),
        ("CO", "UT", "pair listed twice"),
    ],
)
def test_bad_border_rows_are_named(data, a, b, message):
    line = append_border(data, a, b)
    with pytest.raises(DeckError) as error:
        load_deck(data)
    assert str(error.value).startswith(f"borders.csv line {line} ({a},{b}): ")
    assert message in str(error.value)


def test_a_state_with_no_borders_listed(data):
    header, rows = read_rows(data / "borders.csv")
    write_rows(
        data / "borders.csv", header, [r for r in rows if "ME" not in (r["state_a"], r["state_b"])]
    )
    with pytest.raises(DeckError, match="no border listed for ME"):
        load_deck(data)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda rows: rows[0].update(category="Area"), "category 'Area' is not"),
        (lambda rows: rows[0].update(clue_code="ABB"), "clue code 'ABB' is not one of G3's codes"),
        (lambda rows: rows.pop(), "ids must be 1..15"),
        (lambda rows: rows[0].update(id="16"), "ids must be 1..15"),
        # G3: 5 Size, 5 Statehood, 5 Population.
        (
            lambda rows: next(r for r in rows if r["category"] == "Size").update(
                category="Population"
            ),
            "4 Size cards, G3 has 5",
        ),
        # G3: each order twice, AAA/BBB/CCC once.
        (
            lambda rows: next(r for r in rows if r["clue_code"] == "AAA").update(clue_code="BBB"),
            "clue codes AAA, BBB appear the wrong number of times",
        ),
    ],
)
def test_bad_power_cards(data, edit, message):
    header, rows = read_rows(data / "power_cards.csv")
    edit(rows)
    write_rows(data / "power_cards.csv", header, rows)
    with pytest.raises(DeckError, match=message):
        load_deck(data)


def test_map_outline_missing(data):
    import json

    doc = json.loads((data / "map_paths.json").read_text())
    del doc["states"]["RI"]
    (data / "map_paths.json").write_text(json.dumps(doc))
    with pytest.raises(DeckError, match=r"outlines missing for \['RI'\]"):
        load_deck(data)


RANK_COLUMNS = ("size_rank", "statehood_rank", "population_rank")


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    column=st.sampled_from(RANK_COLUMNS),
    pair=st.lists(st.integers(0, 49), min_size=2, max_size=2, unique=True),
)
def test_any_swapped_ranks_are_caught(tmp_path_factory, column, pair):
    """G1: swapping two states' ranks keeps a permutation but breaks rank-figure consistency,
    and the error names one of the two rows."""
    data = copy_data(tmp_path_factory.mktemp("swap"))
    header, rows = read_rows(data / "states.csv")
    i, j = pair
    rows[i][column], rows[j][column] = rows[j][column], rows[i][column]
    write_rows(data / "states.csv", header, rows)
    with pytest.raises(DeckError) as error:
        load_deck(data)
    assert any(f"line {k + 2} ({rows[k]['name']})" in str(error.value) for k in (i, j))


def edit_region(data: Path, state: str, **changes: str) -> int:
    """Change one state's regions.csv row; return its line number."""
    return edit_row(data / "regions.csv", "postal", state, **changes)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"region": "Southwest"}, "region 'Southwest' is not one of"),
        ({"division": "Pacific"}, "'Pacific' is not a Census division of the South"),
        ({"postal": "XX"}, "'XX' is not a state's postal code"),
        ({"postal": "AL"}, "state listed twice"),
    ],
)
def test_bad_region_rows_are_named(data, changes, message):
    line = edit_region(data, "TX", **changes)
    with pytest.raises(DeckError, match=rf"regions.csv line {line} \(.*\): {re.escape(message)}"):
        load_deck(data)


def test_a_state_without_a_region(data):
    header, rows = read_rows(data / "regions.csv")
    write_rows(data / "regions.csv", header, [r for r in rows if r["postal"] != "OH"])
    with pytest.raises(DeckError, match="regions.csv: no region for OH"):
        load_deck(data)
