"""Loads the deck from ``data/`` and refuses data that breaks the rules of the cards (G1-G5)."""

from __future__ import annotations

import csv
import datetime as dt
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .geometry import path_area
from .model import (
    CENSUS_DIVISIONS,
    Category,
    MapCard,
    PowerCard,
    Region,
    StateCard,
    StateShape,
    Zone,
)

_PACKAGE = Path(__file__).resolve().parents[1]
#: The deck's files: ``data/`` at the top of a checkout, ``trainer/data`` in an installed package.
DATA_DIR = _PACKAGE / "data" if (_PACKAGE / "data").is_dir() else _PACKAGE.parent / "data"

STATE_COLUMNS = (
    "name",
    "postal",
    "capital",
    "land_area_sq_mi",
    "size_rank",
    "statehood_date",
    "statehood_rank",
    "population_2010",
    "population_rank",
    "time_zone",
)
OPTIONAL_STATE_COLUMNS = ("secondary_zones",)
BORDER_COLUMNS = ("state_a", "state_b")
POWER_COLUMNS = ("id", "category", "clue_code")
REGION_COLUMNS = ("postal", "region", "division")

STATE_COUNT = 50
POWER_CARD_COUNT = 15
#: G3: the six orders twice each, plus AAA, BBB and CCC once each.
POWER_CLUE_CODES = Counter(
    {code: 2 for code in ("ABC", "ACB", "BAC", "BCA", "CAB", "CBA")}
    | {"AAA": 1, "BBB": 1, "CCC": 1}
)
#: States with no land border at all (G5).
ISLANDED = frozenset({"AK", "HI"})
#: A state with less land than this on the map (units squared; the map is 975 x 610) is hard to
#: see, so its Map card adds a call-out: RI, DE, CT, HI, NJ, MA, NH, VT and MD, the next being
#: West Virginia at 2,600.
CALLOUT_MAX_AREA = 1500.0


class DeckError(ValueError):
    """The data in ``data/`` breaks a rule; the message names the file and row."""


@dataclass(frozen=True)
class MapGeometry:
    """The shared US map: its SVG view box and one outline per state."""

    view_box: str
    source: str
    shapes: dict[str, StateShape] = field(default_factory=dict)

    def west_to_east(self) -> list[str]:
        """The postal codes by the centre of their outline, west first: the map's keyboard order."""
        return sorted(self.shapes, key=lambda postal: (self.shapes[postal].centroid[0], postal))


@dataclass(frozen=True, eq=False)
class Deck:
    """The 50 GeoPlunge cards, their borders, the 15 Power cards and the Map cards.

    Compared and hashed by identity, so derived tables can be cached per deck.
    """

    states: tuple[StateCard, ...]
    borders: frozenset[frozenset[str]]
    power_cards: tuple[PowerCard, ...]
    geometry: MapGeometry
    #: Each state's Census region (``regions.csv``).
    regions: dict[str, Region] = field(default_factory=dict)
    _by_postal: dict[str, StateCard] = field(init=False, repr=False, compare=False)
    _by_name: dict[str, StateCard] = field(init=False, repr=False, compare=False)
    _neighbours: dict[str, tuple[StateCard, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_postal", {s.postal: s for s in self.states})
        object.__setattr__(self, "_by_name", {_fold(s.name): s for s in self.states})
        neighbours: dict[str, list[StateCard]] = {s.postal: [] for s in self.states}
        for pair in self.borders:
            a, b = sorted(pair)
            neighbours[a].append(self._by_postal[b])
            neighbours[b].append(self._by_postal[a])
        object.__setattr__(
            self,
            "_neighbours",
            {postal: tuple(sorted(ns, key=lambda s: s.name)) for postal, ns in neighbours.items()},
        )

    def __iter__(self) -> Iterator[StateCard]:
        return iter(self.states)

    def __len__(self) -> int:
        return len(self.states)

    def get(self, key: str) -> StateCard | None:
        """The card whose postal code or name is ``key`` (any case, spacing), or None."""
        folded = _fold(key)
        return self._by_postal.get(folded.upper()) or self._by_name.get(folded)

    def __getitem__(self, key: str) -> StateCard:
        card = self.get(key)
        if card is None:
            raise KeyError(key)
        return card

    def neighbours(self, state: StateCard | str) -> tuple[StateCard, ...]:
        """The states that share a land border with ``state`` (G5), by name."""
        postal = state.postal if isinstance(state, StateCard) else self[state].postal
        return self._neighbours[postal]

    def borders_between(self, a: StateCard | str, b: StateCard | str) -> bool:
        """True when the two states share a land border (G5)."""
        pa = a.postal if isinstance(a, StateCard) else self[a].postal
        pb = b.postal if isinstance(b, StateCard) else self[b].postal
        return frozenset((pa, pb)) in self.borders

    def sorted_by(self, category: Category | None) -> list[StateCard]:
        """The cards by name, or best-ranked first in ``category``."""
        if category is None:
            return sorted(self.states, key=lambda s: s.name)
        return sorted(self.states, key=lambda s: s.rank(category))

    def in_zone(self, zone: Zone) -> list[StateCard]:
        """The cards whose primary zone is ``zone``, by name."""
        return [s for s in self.sorted_by(None) if s.zone is zone]

    def in_region(self, region: Region) -> list[StateCard]:
        """The cards of the Census region ``region``, by name."""
        return [s for s in self.sorted_by(None) if self.regions.get(s.postal) is region]

    def map_card(self, state: StateCard | str) -> MapCard:
        """The Map card that shows ``state`` in red (G4)."""
        card = state if isinstance(state, StateCard) else self[state]
        shape = self.geometry.shapes[card.postal]
        return MapCard(state=card, shape=shape, needs_callout=shape.area <= CALLOUT_MAX_AREA)


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def load_deck(data_dir: Path | str = DATA_DIR) -> Deck:
    """Load and check the deck in ``data_dir``.

    Raises:
        DeckError: a file is missing or a row breaks a rule; the message names the file and row.
    """
    data_dir = Path(data_dir)
    states = _load_states(data_dir / "states.csv")
    postals = {s.postal for s in states}
    borders = _load_borders(data_dir / "borders.csv", postals)
    power_cards = _load_power_cards(data_dir / "power_cards.csv")
    geometry = _load_geometry(data_dir / "map_paths.json", postals)
    regions = _load_regions(data_dir / "regions.csv", postals)
    return Deck(
        states=states, borders=borders, power_cards=power_cards, geometry=geometry, regions=regions
    )


def _read_csv(
    path: Path, required: Iterable[str], optional: Iterable[str] = ()
) -> list[tuple[int, dict[str, str]]]:
    """Rows of ``path`` with their line numbers; checks the header first."""
    if not path.is_file():
        raise DeckError(f"{path.name}: file not found in {path.parent}")
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        header = tuple(reader.fieldnames or ())
        required = tuple(required)
        missing = [c for c in required if c not in header]
        unknown = [c for c in header if c not in required and c not in tuple(optional)]
        if missing or unknown:
            raise DeckError(
                f"{path.name} line 1: header must be {','.join(required)}"
                + (f" (missing: {', '.join(missing)})" if missing else "")
                + (f" (unknown: {', '.join(unknown)})" if unknown else "")
            )
        rows = []
        for row in reader:
            if None in row or any(v is None for v in row.values()):
                raise DeckError(f"{path.name} line {reader.line_num}: wrong number of fields")
            rows.append((reader.line_num, {k: v.strip() for k, v in row.items()}))
        return rows


def _load_states(path: Path) -> tuple[StateCard, ...]:
    rows = _read_csv(path, STATE_COLUMNS, OPTIONAL_STATE_COLUMNS)
    cards: list[StateCard] = []
    where: dict[str, str] = {}  # postal -> "states.csv line 7 (Colorado)"
    lines: dict[str, int] = {}  # postal -> 7
    for line, row in rows:
        label = f"{path.name} line {line} ({row['name'] or '?'})"
        cards.append(_parse_state(row, label))
        where[cards[-1].postal] = label
        lines[cards[-1].postal] = line
    if len(cards) != STATE_COUNT:
        raise DeckError(f"{path.name}: {len(cards)} rows, expected {STATE_COUNT} states")
    for attr in ("name", "postal", "capital"):
        _unique(cards, attr, where, lines)

    # G1: each ranking a permutation of 1..50, consistent with the figure it ranks.
    orders = {
        "size_rank": sorted(cards, key=lambda s: (-s.land_area_sq_mi, s.name)),
        "statehood_rank": sorted(cards, key=lambda s: (s.statehood_date, s.name)),
        "population_rank": sorted(cards, key=lambda s: (-s.population_2010, s.name)),
    }
    figures = {
        "size_rank": "land_area_sq_mi",
        "statehood_rank": "statehood_date",
        "population_rank": "population_2010",
    }
    for rank_attr, expected_order in orders.items():
        seen: dict[int, StateCard] = {}
        for card in cards:
            rank = getattr(card, rank_attr)
            if not 1 <= rank <= STATE_COUNT:
                raise DeckError(
                    f"{where[card.postal]}: {rank_attr} {rank} is not between 1 and {STATE_COUNT}"
                )
            if rank in seen:
                raise DeckError(
                    f"{where[card.postal]}: {rank_attr} {rank} is also given to {seen[rank].name}"
                )
            seen[rank] = card
        by_rank = sorted(cards, key=lambda s: getattr(s, rank_attr))
        position = {card.postal: index for index, card in enumerate(expected_order)}
        for better, worse in zip(by_rank, by_rank[1:]):
            if position[better.postal] > position[worse.postal]:
                raise DeckError(
                    f"{where[better.postal]}: {rank_attr} {getattr(better, rank_attr)} is better than "
                    f"{worse.name}'s {getattr(worse, rank_attr)} ({path.name} line {lines[worse.postal]}), but its "
                    f"{figures[rank_attr]} {getattr(better, figures[rank_attr])} does not rank it ahead of "
                    f"{getattr(worse, figures[rank_attr])}"
                )
        figure_counts = Counter(getattr(c, figures[rank_attr]) for c in cards)
        if rank_attr != "statehood_rank":
            for card in cards:
                if figure_counts[getattr(card, figures[rank_attr])] > 1:
                    raise DeckError(
                        f"{where[card.postal]}: {figures[rank_attr]} ties another state"
                    )
    return tuple(sorted(cards, key=lambda s: s.name))


def _parse_state(row: dict[str, str], label: str) -> StateCard:
    def need(column: str) -> str:
        value = row[column]
        if not value:
            raise DeckError(f"{label}: {column} is empty")
        return value

    def integer(column: str) -> int:
        try:
            return int(need(column))
        except ValueError:
            raise DeckError(f"{label}: {column} {row[column]!r} is not a whole number") from None

    postal = need("postal")
    if not re.fullmatch(r"[A-Z]{2}", postal):
        raise DeckError(f"{label}: postal code {postal!r} is not two capital letters")
    try:
        area = float(need("land_area_sq_mi"))
    except ValueError:
        raise DeckError(
            f"{label}: land_area_sq_mi {row['land_area_sq_mi']!r} is not a number"
        ) from None
    if area <= 0:
        raise DeckError(f"{label}: land_area_sq_mi must be positive")
    try:
        date = dt.date.fromisoformat(need("statehood_date"))
    except ValueError:
        raise DeckError(
            f"{label}: statehood_date {row['statehood_date']!r} is not an ISO date"
        ) from None
    population = integer("population_2010")
    if population <= 0:
        raise DeckError(f"{label}: population_2010 must be positive")
    zone = _zone(need("time_zone"), label, "time_zone")
    secondary = tuple(
        _zone(part, label, "secondary_zones")
        for part in row.get("secondary_zones", "").split(";")
        if part.strip()
    )
    if zone in secondary or len(set(secondary)) != len(secondary):
        raise DeckError(f"{label}: secondary_zones repeats a zone")
    return StateCard(
        name=need("name"),
        postal=postal,
        capital=need("capital"),
        land_area_sq_mi=area,
        size_rank=integer("size_rank"),
        statehood_date=date,
        statehood_rank=integer("statehood_rank"),
        population_2010=population,
        population_rank=integer("population_rank"),
        zone=zone,
        secondary_zones=secondary,
    )


def _zone(value: str, label: str, column: str) -> Zone:
    try:
        return Zone(value.strip())
    except ValueError:
        allowed = ", ".join(z.value for z in Zone)
        raise DeckError(f"{label}: {column} {value!r} is not one of {allowed}") from None


def _unique(
    cards: list[StateCard], attr: str, where: dict[str, str], lines: dict[str, int]
) -> None:
    seen: dict[str, StateCard] = {}
    for card in cards:
        key = _fold(getattr(card, attr))
        if key in seen:
            raise DeckError(
                f"{where[card.postal]}: {attr} {getattr(card, attr)!r} repeats line {lines[seen[key].postal]} ({seen[key].name})"
            )
        seen[key] = card


def _load_borders(path: Path, postals: set[str]) -> frozenset[frozenset[str]]:
    pairs: set[frozenset[str]] = set()
    touched: set[str] = set()
    for line, row in _read_csv(path, BORDER_COLUMNS):
        a, b = row["state_a"], row["state_b"]
        label = f"{path.name} line {line} ({a},{b})"
        for code in (a, b):
            if code not in postals:
                raise DeckError(f"{label}: {code!r} is not a state's postal code")
        if a == b:
            raise DeckError(f"{label}: a state cannot border itself")
        if not a < b:
            raise DeckError(f"{label}: write each pair once, with state_a before state_b")
        for code in (a, b):
            if code in ISLANDED:
                raise DeckError(f"{label}: {code} borders no state (G5)")
        pair = frozenset((a, b))
        if pair in pairs:
            raise DeckError(f"{label}: pair listed twice")
        pairs.add(pair)
        touched.update(pair)
    lonely = sorted(postals - ISLANDED - touched)
    if lonely:
        raise DeckError(f"{path.name}: no border listed for {', '.join(lonely)}")
    return frozenset(pairs)


def _load_regions(path: Path, postals: set[str]) -> dict[str, Region]:
    regions: dict[str, Region] = {}
    for line, row in _read_csv(path, REGION_COLUMNS):
        postal, region_name, division = row["postal"], row["region"], row["division"]
        label = f"{path.name} line {line} ({postal})"
        if postal not in postals:
            raise DeckError(f"{label}: {postal!r} is not a state's postal code")
        if postal in regions:
            raise DeckError(f"{label}: state listed twice")
        try:
            region = Region(region_name)
        except ValueError:
            raise DeckError(
                f"{label}: region {region_name!r} is not one of {', '.join(r.value for r in Region)}"
            ) from None
        if CENSUS_DIVISIONS.get(division) is not region:
            raise DeckError(f"{label}: {division!r} is not a Census division of the {region.value}")
        regions[postal] = region
    missing = sorted(postals - set(regions))
    if missing:
        raise DeckError(f"{path.name}: no region for {', '.join(missing)}")
    return regions


def _load_power_cards(path: Path) -> tuple[PowerCard, ...]:
    cards: list[PowerCard] = []
    for line, row in _read_csv(path, POWER_COLUMNS):
        label = f"{path.name} line {line}"
        try:
            card_id = int(row["id"])
        except ValueError:
            raise DeckError(f"{label}: id {row['id']!r} is not a whole number") from None
        try:
            category = Category(row["category"])
        except ValueError:
            raise DeckError(
                f"{label}: category {row['category']!r} is not Size, Statehood or Population"
            ) from None
        code = row["clue_code"]
        if code not in POWER_CLUE_CODES:
            raise DeckError(f"{label}: clue code {code!r} is not one of G3's codes")
        cards.append(PowerCard(id=card_id, category=category, clue_code=code))
    if sorted(c.id for c in cards) != list(range(1, POWER_CARD_COUNT + 1)):
        raise DeckError(f"{path.name}: ids must be 1..{POWER_CARD_COUNT}, one row each")
    per_category = Counter(c.category for c in cards)
    for category in Category:
        if per_category[category] != POWER_CARD_COUNT // 3:
            raise DeckError(
                f"{path.name}: {per_category[category]} {category.value} cards, G3 has 5"
            )
    codes = Counter(c.clue_code for c in cards)
    if codes != POWER_CLUE_CODES:
        wrong = sorted(code for code in POWER_CLUE_CODES if codes[code] != POWER_CLUE_CODES[code])
        raise DeckError(
            f"{path.name}: clue codes {', '.join(wrong)} appear the wrong number of times (G3)"
        )
    return tuple(sorted(cards, key=lambda c: c.id))


def _floats(values: Any, count: int) -> Any:
    """``count`` numbers as a tuple of floats.

    Raises:
        ValueError: not ``count`` numbers (a map entry's box or centre is malformed).
    """
    out = tuple(float(v) for v in values)
    if len(out) != count:
        raise ValueError(f"{count} numbers expected, not {len(out)}")
    return out


def _load_geometry(path: Path, postals: set[str]) -> MapGeometry:
    if not path.is_file():
        raise DeckError(f"{path.name}: file not found in {path.parent}")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        shapes = {
            postal: StateShape(
                path=entry["d"],
                bbox=_floats(entry["bbox"], 4),
                centroid=_floats(entry["centroid"], 2),
                area=path_area(entry["d"]),
            )
            for postal, entry in raw["states"].items()
        }
        view_box, source = str(raw["viewBox"]), str(raw.get("source", ""))
    except (ValueError, KeyError, TypeError) as error:
        raise DeckError(f"{path.name}: not a map file ({error})") from None
    if set(shapes) != postals:
        missing = sorted(postals - set(shapes))
        extra = sorted(set(shapes) - postals)
        raise DeckError(
            f"{path.name}: outlines missing for {missing or 'none'}, unknown {extra or 'none'}"
        )
    return MapGeometry(view_box=view_box, source=source, shapes=shapes)
