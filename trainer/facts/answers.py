"""Checks typed answers about a state the way a teacher would: fair to slips, firm on facts."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING

from trainer.cards.model import Category, Zone

if TYPE_CHECKING:
    from trainer.cards import Deck, StateCard

__all__ = [
    "VARIANTS",
    "Judgement",
    "UnreadableAnswer",
    "Verdict",
    "judge_borders",
    "judge_capital",
    "judge_postal",
    "judge_rank",
    "judge_state_name",
    "judge_zone",
    "normalize",
    "ordinal",
    "postal_code_in",
    "read_state",
    "slip_distance_at_most_one",
]

#: A slip of spelling is forgiven only for answers at least this long (in letters): in a shorter
#: word one changed letter is too large a share of it to be sure the student knew the answer.
MIN_SLIP_LETTERS = 5

#: Accepted alternatives to a capital's name on the card, by postal code. "Saint"/"St." needs no
#: entry: normalize() expands "st" to "saint". "Salt Lake" is how Utahns themselves name their
#: capital and names no other city. Bare first words are deliberately refused: "Jefferson",
#: "Carson" and "Oklahoma" are also a person, other towns or a state, so they do not show that
#: the student knows Jefferson City, Carson City or Oklahoma City.
VARIANTS: Mapping[str, tuple[str, ...]] = {
    "UT": ("Salt Lake",),
}

EMPTY_MESSAGE = "Type an answer, or press “I don't know”."
RANK_MESSAGE = "Type a number from 1 to 50."
NO_BORDERS = "No states: {name} borders no other state"

_ABBREVIATIONS = {"st": "saint", "ft": "fort", "mt": "mount"}


class Verdict(str, Enum):
    """How an answer is marked."""

    RIGHT = "right"
    CLOSE = "close"
    WRONG = "wrong"


class UnreadableAnswer(ValueError):
    """The answer cannot be judged (empty, not a number, an unknown state name in a list).

    The student is asked to fix it; nothing is recorded. ``str(exc)`` is a clear, friendly message
    for a 9-14 year old.
    """


@dataclass(frozen=True)
class Judgement:
    """The mark for one answer, with what to show the student and what to remember."""

    verdict: Verdict
    #: What the student typed, whitespace-trimmed.
    given: str
    #: The right answer as it should be shown.
    expected: str
    #: A short explanation for close and wrong answers.
    note: str = ""
    #: Postal codes of the states the answer named or pointed to (to find confused pairs).
    answered: tuple[str, ...] = ()
    #: Borders only: postal codes of neighbours not named.
    missed: tuple[str, ...] = ()
    #: Borders only: postal codes named that are not neighbours.
    wrong: tuple[str, ...] = ()


# --------------------------------------------------------------------------- normalising text


def _drop_marks(text: str) -> str:
    return "".join(char for char in text if not unicodedata.category(char).startswith("M"))


def _clean(text: str) -> str:
    """normalize() without the abbreviations: postal codes such as MT must survive it."""
    # Marks are dropped both before casefolding (which turns some, like U+0345, into letters) and
    # after it (casefolding can itself produce marks: İ -> i + dot above).
    decomposed = unicodedata.normalize(
        "NFKD", _drop_marks(unicodedata.normalize("NFKD", text)).casefold()
    )
    out: list[str] = []
    for char in _drop_marks(decomposed):
        if char == "&":
            out.append(" and ")
        # Modifier letters such as the ʻokina in "Hawaiʻi" count as punctuation, not letters.
        elif char.isalnum() and unicodedata.category(char) != "Lm":
            out.append(char)
        else:
            out.append(" ")
    return " ".join("".join(out).split())


def normalize(text: str) -> str:
    """Fold ``text`` so that case, spacing, punctuation and accents do not matter.

    NFKD with combining marks dropped, casefolded, ``&`` read as "and", every other character that
    is not a letter or digit made a space, spaces collapsed, and the whole words "st", "ft" and
    "mt" expanded to "saint", "fort" and "mount".
    """
    return " ".join(_ABBREVIATIONS.get(word, word) for word in _clean(text).split())


def _compact(text: str) -> str:
    return text.replace(" ", "")


def _keys(text: str) -> frozenset[str]:
    """The forms an answer is compared in: spaces dropped, with and without abbreviations expanded.

    Both forms are kept because a stray mark can split off "st" inside a word ("Au-st-in"), which
    must not become "Ausaintin".
    """
    return frozenset({_compact(_clean(text)), _compact(normalize(text))})


def _letters(text: str) -> int:
    return sum(char.isalpha() for char in _compact(normalize(text)))


def slip_distance_at_most_one(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` differ by at most one slip.

    A slip is one inserted, deleted or substituted character, or two adjacent characters swapped
    (optimal string alignment distance <= 1). Runs in linear time without building a table.
    """
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) < len(b):
        return a[i:] == b[i + 1 :]
    if a[i + 1 :] == b[i + 1 :]:
        return True
    return i + 1 < len(a) and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2 :] == b[i + 2 :]


def _slips(given: Iterable[str], targets: Iterable[str]) -> bool:
    targets = tuple(targets)
    return any(slip_distance_at_most_one(g, t) for g in given for t in targets)


# --------------------------------------------------------------------------- the deck's answers


@dataclass(frozen=True)
class _Index:
    """Every valid answer in the deck, keyed by its compared forms."""

    cards: dict[str, StateCard]
    names: dict[str, str]  # key -> postal
    capitals: dict[str, str]  # key (capital or variant) -> postal
    #: postal -> keys of its name / its capital and variants, only where the card's answer is long
    #: enough (MIN_SLIP_LETTERS) to forgive a slip in.
    slippable_names: dict[str, frozenset[str]]
    slippable_capitals: dict[str, frozenset[str]]


@cache  # decks hash by identity; an app loads one
def _index(deck: Deck) -> _Index:
    cards = {card.postal: card for card in deck}
    name_keys = {postal: _keys(card.name) for postal, card in cards.items()}
    capital_keys = {
        postal: frozenset().union(*(_keys(c) for c in (card.capital, *VARIANTS.get(postal, ()))))
        for postal, card in cards.items()
    }
    index = _Index(
        cards=cards,
        names={key: postal for postal, keys in name_keys.items() for key in keys},
        capitals={key: postal for postal, keys in capital_keys.items() for key in keys},
        slippable_names={
            p: keys for p, keys in name_keys.items() if _letters(cards[p].name) >= MIN_SLIP_LETTERS
        },
        slippable_capitals={
            p: keys
            for p, keys in capital_keys.items()
            if _letters(cards[p].capital) >= MIN_SLIP_LETTERS
        },
    )
    return index


def _exact(keys: Iterable[str], table: Mapping[str, str]) -> str | None:
    for key in keys:
        if key in table:
            return table[key]
    return None


def _postal_code(text: str, index: _Index) -> str | None:
    """The postal code ``text`` spells (any case, dots and spaces ignored), if it is one."""
    code = _compact(_clean(text)).upper()
    return code if code in index.cards else None


def postal_code_in(given: str, deck: Deck) -> str | None:
    """The postal code ``given`` is, if it is nothing but one: any case, dots and spaces ignored.

    "MT", "mt", "Mt." and "m.t." are all Montana's code: this reads the code before normalize()
    could turn "mt" into "mount" (ruling P-H6).
    """
    return _postal_code(given, _index(deck))


def read_state(given: str, deck: Deck) -> str | None:
    """The postal code of the state ``given`` names exactly, where a state is expected; else None.

    The state's name (case, spaces, accents and punctuation ignored: "new york", "NewYork") or its
    postal code in any case, with or without dots ("MT", "mt", "Mt." are Montana, never "Mount":
    ruling P-H6). No slip of spelling is forgiven: a guess or a listed state one letter away
    from a name could be meant for another state, so the student or teacher is asked again.
    """
    index = _index(deck)
    return _postal_code(given, index) or _exact(_keys(given), index.names)


def _slipped_to(keys: frozenset[str], targets: Mapping[str, frozenset[str]]) -> set[str]:
    """Postal codes whose answer in ``targets`` is one slip from ``keys``."""
    return {postal for postal, target in targets.items() if _slips(keys, target)}


def _read(given: str) -> str:
    """``given`` trimmed; refuses an answer with nothing in it to judge."""
    text = given.strip()
    if not _clean(text):
        raise UnreadableAnswer(EMPTY_MESSAGE)
    return text


def _nearly(spelling: str) -> str:
    return f'Nearly! It is spelled "{spelling}".'


def _and(words: Iterable[str]) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


# --------------------------------------------------------------------------- judges


def judge_state_name(given: str, deck: Deck, expected_postal: str) -> Judgement:
    """Judge a state's full name typed for "Which state is this?".

    Spaces are optional ("newyork"). The right state's postal code is close (the name is wanted);
    another state's name or code is wrong, with that state in ``answered``.

    Raises:
        UnreadableAnswer: the answer is blank.
    """
    text = _read(given)
    index = _index(deck)
    card = index.cards[expected_postal]
    keys = _keys(text)

    def judged(verdict: Verdict, note: str = "", answered: tuple[str, ...] = ()) -> Judgement:
        return Judgement(verdict, text, card.name, note, answered)

    hit = _exact(keys, index.names)
    if hit == card.postal:
        return judged(Verdict.RIGHT, answered=(hit,))
    if hit is not None:
        return judged(
            Verdict.WRONG,
            f"{index.cards[hit].name} is a different state. This is {card.name}.",
            (hit,),
        )
    code = _postal_code(text, index)
    if code == card.postal:
        return judged(
            Verdict.CLOSE, f"{code} is the postal code. Type the full name: {card.name}.", (code,)
        )
    if code is not None:
        return judged(
            Verdict.WRONG,
            f"{code} is the code for {index.cards[code].name}. This is {card.name}.",
            (code,),
        )
    if _slips(keys, index.slippable_names.get(card.postal, ())):
        return judged(Verdict.CLOSE, _nearly(card.name), (card.postal,))
    capital_of = _exact(keys, index.capitals)
    if capital_of is not None:
        other = index.cards[capital_of]
        return judged(
            Verdict.WRONG,
            f"{other.capital} is the capital of {other.name}. This state is {card.name}.",
            (capital_of,),
        )
    slipped = _slipped_to(keys, index.slippable_names)
    if len(slipped) == 1:
        (other_postal,) = slipped
        return judged(
            Verdict.WRONG,
            f"This is {card.name}, not {index.cards[other_postal].name}.",
            (other_postal,),
        )
    return judged(Verdict.WRONG, f"This is {card.name}.")


def judge_capital(given: str, deck: Deck, postal: str) -> Judgement:
    """Judge a capital typed for the state ``postal``.

    "St."/"Saint" and the alternatives in ``VARIANTS`` are right; one slip is close; another
    state's capital is wrong, with a note naming whose capital it is.

    Raises:
        UnreadableAnswer: the answer is blank.
    """
    text = _read(given)
    index = _index(deck)
    card = index.cards[postal]
    keys = _keys(text)

    def judged(verdict: Verdict, note: str = "", answered: tuple[str, ...] = ()) -> Judgement:
        return Judgement(verdict, text, card.capital, note, answered)

    hit = _exact(keys, index.capitals)
    if hit == card.postal:
        return judged(Verdict.RIGHT, answered=(hit,))
    if hit is not None:
        other = index.cards[hit]
        return judged(Verdict.WRONG, f"{other.capital} is the capital of {other.name}.", (hit,))
    if _slips(keys, index.slippable_capitals.get(card.postal, ())):
        return judged(Verdict.CLOSE, _nearly(card.capital), (card.postal,))
    state = _exact(keys, index.names)
    if state is not None:
        return judged(
            Verdict.WRONG,
            f"{index.cards[state].name} is a state. The capital of {card.name} is {card.capital}.",
        )
    slipped = _slipped_to(keys, index.slippable_capitals)
    if len(slipped) == 1:
        (other_postal,) = slipped
        other = index.cards[other_postal]
        return judged(
            Verdict.WRONG, f"{other.capital} is the capital of {other.name}.", (other_postal,)
        )
    return judged(Verdict.WRONG, f"The capital of {card.name} is {card.capital}.")


def judge_postal(given: str, deck: Deck, postal: str) -> Judgement:
    """Judge a two-letter postal code: any case, dots and spaces ignored ("c.o."), no slips.

    Raises:
        UnreadableAnswer: the answer is blank.
    """
    text = _read(given)
    index = _index(deck)
    card = index.cards[postal]

    def judged(verdict: Verdict, note: str = "", answered: tuple[str, ...] = ()) -> Judgement:
        return Judgement(verdict, text, card.postal, note, answered)

    code = _postal_code(text, index)
    if code == card.postal:
        return judged(Verdict.RIGHT, answered=(code,))
    if code is not None:
        other = index.cards[code].name
        return judged(
            Verdict.WRONG,
            f"{code} is the code for {other}; {card.name}'s is {card.postal}.",
            (code,),
        )
    named = _exact(_keys(text), index.names)
    if named is not None:
        return judged(
            Verdict.WRONG, f"Type the two-letter code. {card.name}'s is {card.postal}.", (named,)
        )
    return judged(Verdict.WRONG, f"The code for {card.name} is {card.postal}.")


def ordinal(number: int) -> str:
    """``number`` as a short ordinal: 1st, 2nd, 3rd, 4th, 11th, 21st."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _number_words() -> dict[str, int]:
    """Cardinal and ordinal words for 1-50, without spaces: "eight", "eighth", "twentyfirst"."""
    ones = [
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
    ]
    firsts = [
        "first",
        "second",
        "third",
        "fourth",
        "fifth",
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
        "eleventh",
        "twelfth",
        "thirteenth",
        "fourteenth",
        "fifteenth",
        "sixteenth",
        "seventeenth",
        "eighteenth",
        "nineteenth",
    ]
    tens = {
        20: ("twenty", "twentieth"),
        30: ("thirty", "thirtieth"),
        40: ("forty", "fortieth"),
        50: ("fifty", "fiftieth"),
    }
    words: dict[str, int] = {}
    for n, (cardinal, ordinal_word) in enumerate(zip(ones, firsts), start=1):
        words[cardinal] = words[ordinal_word] = n
    for ten, (cardinal, ordinal_word) in tens.items():
        words[cardinal] = words[ordinal_word] = ten
        if ten < 50:
            for n in range(1, 10):
                words[cardinal + ones[n - 1]] = words[cardinal + firsts[n - 1]] = ten + n
    # "Fourty" is the commonest misspelling of a number word; a rank is not a spelling test.
    words.update(
        {key.replace("forty", "fourty"): n for key, n in words.items() if key.startswith("forty")}
    )
    return words


_NUMBER_WORDS = _number_words()
_RANK_FILLER = {
    "the",
    "number",
    "no",
    "num",
    "nr",
    "n",
    "rank",
    "ranked",
    "ranking",
    "place",
    "position",
    "is",
}
_RANK_DIGITS = re.compile(r"(\d{1,3}) ?(?:st|nd|rd|th)?")
# A minus sign would otherwise be folded away as punctuation, turning "-8" into 8.
_NEGATIVE = re.compile(r"[-−‐‑–—]\s*\d")


def _parse_rank(text: str) -> int:
    if _NEGATIVE.search(unicodedata.normalize("NFKC", text)):
        raise UnreadableAnswer(RANK_MESSAGE)
    words = [word for word in _clean(text).split() if word not in _RANK_FILLER]
    rest = " ".join(words)
    digits = _RANK_DIGITS.fullmatch(rest)
    number = int(digits.group(1)) if digits else _NUMBER_WORDS.get(_compact(rest))
    if number is None or not 1 <= number <= 50:
        raise UnreadableAnswer(RANK_MESSAGE)
    return number


def _rank_fact(card: StateCard, category: Category) -> str:
    place = ordinal(card.rank(category))
    if category is Category.STATEHOOD:
        return f"{card.name} was the {place} state to join the Union"
    return f"{card.name} ranks {place} in {category.value.lower()}"


def judge_rank(given: str, deck: Deck, postal: str, category: Category) -> Judgement:
    """Judge a ranking from 1 to 50: exact is right, within 2 is close, anything else wrong.

    Reads "8", "8th", "#8", "number 8", "eighth" and "twenty-first".

    Raises:
        UnreadableAnswer: the answer is blank, not a number, or not between 1 and 50.
    """
    text = _read(given)
    card = _index(deck).cards[postal]
    number = _parse_rank(text)
    off = abs(number - card.rank(category))
    expected = ordinal(card.rank(category))
    if off == 0:
        return Judgement(Verdict.RIGHT, text, expected)
    if off <= 2:
        return Judgement(Verdict.CLOSE, text, expected, f"Close: {_rank_fact(card, category)}.")
    return Judgement(Verdict.WRONG, text, expected, f"{_rank_fact(card, category)}.")


# Borders: a list split on commas, semicolons, slashes, pipes, plus signs, newlines or "and".
_LIST_SEPARATORS = re.compile(r"[,;/\\|+&\n\r\t]+|\band\b", re.IGNORECASE)
_NO_STATES = {
    "none", "no", "no states", "no state", "no other states", "no other state", "nothing", "nobody",
    "no one", "0", "zero", "none at all", "it borders no states", "it borders no state",
}  # fmt: skip


def _resolve(item: str, index: _Index) -> tuple[str, bool] | None:
    """The postal code of the state ``item`` names, and whether that took a slip; None if none."""
    keys = _keys(item)
    hit = _exact(keys, index.names)
    if hit is not None:
        return hit, False
    code = _postal_code(item, index)
    if code is not None:
        return code, False
    slipped = _slipped_to(keys, index.slippable_names)
    if len(slipped) == 1:
        return slipped.pop(), True
    return None


def _split_run_on(item: str, index: _Index) -> list[str] | None:
    """Postal codes for an item that is several exact names typed with only spaces between them.

    Postal codes count only when every word is one ("ut wy ks"): in a sentence "or", "in" and
    "me" are words, not Oregon, Indiana and Maine.
    """
    words = _clean(item).split()
    if len(words) < 2:
        return None
    if all(word.upper() in index.cards for word in words):
        return [word.upper() for word in words]
    reached: list[list[str] | None] = [None] * (len(words) + 1)
    reached[0] = []
    for start in range(len(words)):
        sofar = reached[start]
        if sofar is None:
            continue
        for end in range(start + 1, min(len(words), start + 3) + 1):
            postal = index.names.get("".join(words[start:end]))
            if postal is not None and reached[end] is None:
                reached[end] = [*sofar, postal]
    return reached[-1]


def judge_borders(given: str, deck: Deck, postal: str) -> Judgement:
    """Judge a list of the states that border ``postal``.

    Items may be names (one slip forgiven for names of 5+ letters) or postal codes; duplicates are
    ignored. All neighbours and nothing else is right, but close if a name needed a slip; at least
    one true neighbour is close; anything else is wrong. Alaska and Hawaii border no state, so
    "none" (or "no", "nothing", "0") is right for them and wrong for every other state.

    Raises:
        UnreadableAnswer: the answer is blank, an item is not a state, or "none" comes with states.
    """
    text = _read(given)
    index = _index(deck)
    card = index.cards[postal]
    neighbours = {n.postal for n in deck.neighbours(card.postal)}
    expected = (
        ", ".join(sorted(index.cards[p].name for p in neighbours))
        if neighbours
        else NO_BORDERS.format(name=card.name)
    )

    def by_name(codes: Iterable[str]) -> tuple[str, ...]:
        return tuple(sorted(codes, key=lambda p: index.cards[p].name))

    def names(codes: Iterable[str]) -> str:
        return _and(index.cards[p].name for p in by_name(codes))

    if _clean(text) in _NO_STATES:
        if not neighbours:
            return Judgement(Verdict.RIGHT, text, expected)
        return Judgement(
            Verdict.WRONG,
            text,
            expected,
            f"{card.name} borders {names(neighbours)}.",
            missed=by_name(neighbours),
        )

    named: list[str] = []
    exact: set[str] = set()
    for item in _LIST_SEPARATORS.split(text):
        if not _clean(item):
            continue
        if _clean(item) in _NO_STATES:
            raise UnreadableAnswer(f"You wrote '{item.strip()}' and also named states. Choose one.")
        resolved = _resolve(item, index)
        if resolved is not None:
            found, slipped = [resolved[0]], resolved[1]
        else:
            found, slipped = _split_run_on(item, index) or [], False
            if not found:
                raise UnreadableAnswer(
                    f"We don't know a state called '{item.strip()}'. Check the spelling."
                )
        for code in found:
            if code not in named:
                named.append(code)
            if not slipped:
                exact.add(code)
    if not named:
        raise UnreadableAnswer(EMPTY_MESSAGE)

    missed = neighbours - set(named)
    wrong = set(named) - neighbours
    misspelt = by_name(set(named) - exact)
    notes: list[str] = []
    if missed:
        notes.append(f"You missed {names(missed)}.")
    if card.postal in wrong:
        notes.append(f"{card.name} is the state itself.")
    others = wrong - {card.postal}
    if others:
        notes.append(
            f"{names(others)} {'does' if len(others) == 1 else 'do'} not border {card.name}."
        )
    if not neighbours:
        notes.append(f"{card.name} borders no other state.")
    if misspelt:
        notes.append(
            "Watch the spelling: " + ", ".join(f'"{index.cards[p].name}"' for p in misspelt) + "."
        )

    if not missed and not wrong:
        verdict = Verdict.CLOSE if misspelt else Verdict.RIGHT
        if misspelt:
            notes.insert(0, "All named!")
    elif neighbours & set(named):
        verdict = Verdict.CLOSE
    else:
        verdict = Verdict.WRONG
    return Judgement(
        verdict,
        text,
        expected,
        " ".join(notes),
        tuple(named),
        missed=by_name(missed),
        wrong=by_name(wrong),
    )


# Zones: the name, optionally with "time", "zone", "standard"/"daylight"; or a common abbreviation.
_ZONE_FILLER = {
    "the",
    "time",
    "times",
    "zone",
    "timezone",
    "tz",
    "standard",
    "daylight",
    "saving",
    "savings",
}
_ZONE_ALIASES: dict[str, Zone] = {
    **dict.fromkeys(("eastern", "east", "et", "est", "edt"), Zone.EASTERN),
    **dict.fromkeys(("central", "ct", "cst", "cdt"), Zone.CENTRAL),
    **dict.fromkeys(("mountain", "mt", "mst", "mdt"), Zone.MOUNTAIN),
    **dict.fromkeys(("pacific", "pt", "pst", "pdt"), Zone.PACIFIC),
    **dict.fromkeys(("alaska", "alaskan", "akt", "akst", "akdt"), Zone.ALASKA),
    **dict.fromkeys(
        ("hawaiialeutian", "hawaii", "hawaiian", "aleutian", "hst", "hast", "hadt", "hat"),
        Zone.HAWAII_ALEUTIAN,
    ),
}


def _read_zone(text: str) -> tuple[Zone | None, bool]:
    """The zone ``text`` names and whether that took a slip; (None, False) if it names none."""
    key = "".join(word for word in _clean(text).split() if word not in _ZONE_FILLER)
    if key in _ZONE_ALIASES:
        return _ZONE_ALIASES[key], False
    slipped = {
        zone
        for alias, zone in _ZONE_ALIASES.items()
        if len(alias) >= MIN_SLIP_LETTERS and slip_distance_at_most_one(key, alias)
    }
    if len(slipped) == 1:
        return slipped.pop(), True
    return None, False


def judge_zone(given: str, deck: Deck, postal: str) -> Judgement:
    """Judge the time zone on a state's card (its primary zone).

    One of the state's secondary zones is close: part of the state is on that time.

    Raises:
        UnreadableAnswer: the answer is blank.
    """
    text = _read(given)
    card = _index(deck).cards[postal]
    expected = card.zone.value
    zone, slipped = _read_zone(text)
    if zone is card.zone:
        if slipped:
            return Judgement(Verdict.CLOSE, text, expected, _nearly(expected))
        return Judgement(Verdict.RIGHT, text, expected)
    if zone is not None and zone in card.secondary_zones:
        return Judgement(
            Verdict.CLOSE,
            text,
            expected,
            f"Part of {card.name} is on {zone.value} time, but the card's zone is {expected}.",
        )
    note = f"{card.name} is on {expected} time"
    if card.secondary_zones:
        note += f" (part of it is on {_and(z.value for z in card.secondary_zones)})"
    return Judgement(Verdict.WRONG, text, expected, note + ".")
