"""Answer checking a teacher would trust: variants, slips, rankings, borders and time zones."""

from __future__ import annotations

import dataclasses
import string
import unicodedata

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from trainer.cards import Category, Deck, load_deck
from trainer.facts.answers import (
    EMPTY_MESSAGE,
    RANK_MESSAGE,
    VARIANTS,
    Judgement,
    UnreadableAnswer,
    Verdict,
    judge_borders,
    judge_capital,
    judge_postal,
    judge_rank,
    judge_state_name,
    judge_zone,
    normalize,
    ordinal,
    slip_distance_at_most_one,
)

DECK = load_deck()
STATES = sorted(DECK, key=lambda s: s.name)
ALL_JUDGES = [
    lambda text: judge_state_name(text, DECK, "CO"),
    lambda text: judge_capital(text, DECK, "CO"),
    lambda text: judge_postal(text, DECK, "CO"),
    lambda text: judge_rank(text, DECK, "CO", Category.SIZE),
    lambda text: judge_borders(text, DECK, "CO"),
    lambda text: judge_zone(text, DECK, "CO"),
]
CO_NEIGHBOURS = ("KS", "NE", "NM", "OK", "UT", "WY")


def _compact(text: str) -> str:
    return normalize(text).replace(" ", "")


def _deck_with(postal: str, **changes: str) -> Deck:
    """The real deck with one card changed: for rules no pair of real answers happens to test."""
    states = tuple(dataclasses.replace(s, **changes) if s.postal == postal else s for s in DECK)
    return Deck(
        states=states, borders=DECK.borders, power_cards=DECK.power_cards, geometry=DECK.geometry
    )


# --------------------------------------------------------------------------- normalize, slips


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("  New   York ", "new york"),
        ("ST. PAUL", "saint paul"),
        ("St Paul", "saint paul"),
        ("Ft. Worth", "fort worth"),
        ("Mt. Hood", "mount hood"),
        ("Austin", "austin"),  # "st" only as a whole word
        ("São Tomé", "sao tome"),
        ("Hawaiʻi", "hawai i"),  # the ʻokina is punctuation
        ("Coeur d’Alene!", "coeur d alene"),
        ("R&D", "r and d"),
        ("Straße", "strasse"),
        ("...", ""),
    ],
)
def test_normalize(text, folded):
    assert normalize(text) == folded


@pytest.mark.parametrize(
    ("a", "b", "within_one"),
    [
        ("colorado", "colorado", True),
        ("colorado", "colorrado", True),  # insert
        ("colorado", "colrado", True),  # delete
        ("colorado", "colorade", True),  # substitute
        ("colorado", "coloardo", True),  # adjacent swap
        ("colorado", "cloorado", True),
        ("colorado", "coloraod", True),  # swap at the end
        ("colorado", "oclorado", True),  # swap at the start
        ("colorado", "colorodo", True),
        ("colorado", "colarodo", False),  # two substitutions
        ("colorado", "corolado", False),  # a swap of letters that are not adjacent
        ("colorado", "color", False),
        ("", "a", True),
        ("", "ab", False),
        ("ab", "ba", True),
        ("abc", "ca", False),
    ],
)
def test_slip_distance(a, b, within_one):
    assert slip_distance_at_most_one(a, b) is within_one
    assert slip_distance_at_most_one(b, a) is within_one


def _osa_distance(a: str, b: str) -> int:
    """Textbook optimal string alignment distance, to check the fast version against."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


@settings(max_examples=300, deadline=None)
@given(st.text("abc", max_size=6), st.text("abc", max_size=6))
def test_slip_distance_matches_the_textbook_definition(a, b):
    assert slip_distance_at_most_one(a, b) is (_osa_distance(a, b) <= 1)


@pytest.mark.parametrize("judge", ALL_JUDGES)
@pytest.mark.parametrize("blank", ["", "   ", "\n\t", "?!", "..."])
def test_every_judge_refuses_a_blank_answer(judge, blank):
    with pytest.raises(UnreadableAnswer) as caught:
        judge(blank)
    assert str(caught.value) == EMPTY_MESSAGE


def test_judgement_keeps_what_was_typed_trimmed():
    judgement = judge_state_name("  colorado \n", DECK, "CO")
    assert judgement == Judgement(Verdict.RIGHT, "colorado", "Colorado", "", ("CO",))


# --------------------------------------------------------------------------- state names


@pytest.mark.parametrize("typed", ["Colorado", "colorado", "COLORADO", " Colo-rado. ", "Cólorádo"])
def test_name_right(typed):
    judgement = judge_state_name(typed, DECK, "CO")
    assert judgement.verdict is Verdict.RIGHT
    assert judgement.answered == ("CO",)
    assert judgement.expected == "Colorado"


@pytest.mark.parametrize(
    ("typed", "postal"), [("newyork", "NY"), ("New  York", "NY"), ("north-carolina", "NC")]
)
def test_name_spaces_are_optional(typed, postal):
    assert judge_state_name(typed, DECK, postal).verdict is Verdict.RIGHT


@pytest.mark.parametrize("typed", ["co", "CO", "C.O."])
def test_name_postal_code_of_the_right_state_is_close(typed):
    judgement = judge_state_name(typed, DECK, "CO")
    assert judgement.verdict is Verdict.CLOSE
    assert judgement.answered == ("CO",)
    assert "full name" in judgement.note and "Colorado" in judgement.note


def test_name_montana_code_is_not_read_as_mount():
    assert judge_state_name("MT", DECK, "MT").verdict is Verdict.CLOSE


@pytest.mark.parametrize(
    ("typed", "kind"),
    [
        ("Colorrado", "insert"),
        ("Colrado", "delete"),
        ("Colorade", "substitute"),
        ("Coloardo", "swap"),
    ],
)
def test_name_one_slip_is_close_with_the_spelling(typed, kind):
    judgement = judge_state_name(typed, DECK, "CO")
    assert judgement.verdict is Verdict.CLOSE, kind
    assert judgement.note == 'Nearly! It is spelled "Colorado".'
    assert judgement.answered == ("CO",)


def test_name_slip_across_words():
    assert judge_state_name("New Hampshrie", DECK, "NH").verdict is Verdict.CLOSE


def test_name_slip_in_a_five_letter_name_is_close():
    assert judge_state_name("Idaoh", DECK, "ID").verdict is Verdict.CLOSE
    assert judge_state_name("Miane", DECK, "ME").verdict is Verdict.CLOSE


@pytest.mark.parametrize(
    ("typed", "postal"), [("Ohoi", "OH"), ("Uath", "UT"), ("Iowaa", "IA"), ("Ohi", "OH")]
)
def test_name_slip_refused_under_five_letters(typed, postal):
    assert judge_state_name(typed, DECK, postal).verdict is Verdict.WRONG


def test_name_two_slips_are_wrong():
    assert judge_state_name("Colarodo", DECK, "CO").verdict is Verdict.WRONG


def test_name_of_another_state_is_wrong():
    judgement = judge_state_name("Nevada", DECK, "CO")
    assert judgement.verdict is Verdict.WRONG
    assert judgement.answered == ("NV",)
    assert "Nevada" in judgement.note and "Colorado" in judgement.note


def test_name_slip_refused_when_it_is_another_states_name():
    # No two real names are one slip apart, so Utah is renamed "Nevade" here.
    deck = _deck_with("UT", name="Nevade")
    judgement = judge_state_name("Nevade", deck, "NV")
    assert judgement.verdict is Verdict.WRONG
    assert judgement.answered == ("UT",)
    assert judge_state_name("Nevadda", deck, "NV").verdict is Verdict.CLOSE


def test_name_slip_of_another_states_name_points_to_it():
    judgement = judge_state_name("Nevda", DECK, "CO")
    assert judgement.verdict is Verdict.WRONG
    assert judgement.answered == ("NV",)


def test_name_another_states_code_is_wrong():
    judgement = judge_state_name("ut", DECK, "CO")
    assert (judgement.verdict, judgement.answered) == (Verdict.WRONG, ("UT",))
    assert "Utah" in judgement.note


def test_name_a_capital_is_wrong_and_points_to_its_state():
    judgement = judge_state_name("Denver", DECK, "UT")
    assert (judgement.verdict, judgement.answered) == (Verdict.WRONG, ("CO",))
    assert judgement.note == "Denver is the capital of Colorado. This state is Utah."


def test_name_nonsense_is_wrong():
    judgement = judge_state_name("Canada", DECK, "CO")
    assert (judgement.verdict, judgement.answered) == (Verdict.WRONG, ())


# --------------------------------------------------------------------------- capitals


@pytest.mark.parametrize(
    "typed", ["Saint Paul", "St. Paul", "st paul", "ST.PAUL", "saint-paul", "Saintpaul"]
)
def test_capital_saint_variants(typed):
    judgement = judge_capital(typed, DECK, "MN")
    assert judgement.verdict is Verdict.RIGHT
    assert judgement.expected == "Saint Paul"
    assert judgement.answered == ("MN",)


@pytest.mark.parametrize("typed", ["Salt Lake City", "Salt Lake", "salt-lake"])
def test_capital_variants_table(typed):
    assert "Salt Lake" in VARIANTS["UT"]
    judgement = judge_capital(typed, DECK, "UT")
    assert (judgement.verdict, judgement.expected) == (Verdict.RIGHT, "Salt Lake City")


@pytest.mark.parametrize(
    ("typed", "postal"), [("Jefferson", "MO"), ("Carson", "NV"), ("Oklahoma", "OK")]
)
def test_capital_ambiguous_bare_names_refused(typed, postal):
    assert judge_capital(typed, DECK, postal).verdict is Verdict.WRONG


@pytest.mark.parametrize(
    ("typed", "postal"),
    [
        ("Denevr", "CO"),
        ("Sacremento", "CA"),
        ("Tallahasee", "FL"),
        ("Boies", "ID"),
        ("Sant Paul", "MN"),
    ],
)
def test_capital_one_slip_is_close(typed, postal):
    judgement = judge_capital(typed, DECK, postal)
    assert judgement.verdict is Verdict.CLOSE
    assert judgement.note == f'Nearly! It is spelled "{DECK[postal].capital}".'


def test_capital_of_another_state_is_wrong_and_says_whose():
    judgement = judge_capital("Denver", DECK, "UT")
    assert judgement.verdict is Verdict.WRONG
    assert judgement.answered == ("CO",)
    assert judgement.note == "Denver is the capital of Colorado."
    assert judgement.expected == "Salt Lake City"


def test_capital_slip_refused_when_it_is_another_capital():
    # No two real capitals are one slip apart, so Utah's capital is renamed here.
    deck = _deck_with("UT", capital="Carsen City")
    judgement = judge_capital("Carsen City", deck, "NV")
    assert (judgement.verdict, judgement.answered) == (Verdict.WRONG, ("UT",))
    assert judge_capital("Carson Cty", deck, "NV").verdict is Verdict.CLOSE


def test_capital_the_state_name_is_wrong():
    judgement = judge_capital("Colorado", DECK, "CO")
    assert judgement.verdict is Verdict.WRONG
    assert "Denver" in judgement.note


# --------------------------------------------------------------------------- postal codes


@pytest.mark.parametrize("typed", ["CO", "co", "Co", "cO", "c.o.", " C O ", "C-O"])
def test_postal_any_case(typed):
    judgement = judge_postal(typed, DECK, "CO")
    assert (judgement.verdict, judgement.expected, judgement.answered) == (
        Verdict.RIGHT,
        "CO",
        ("CO",),
    )


@pytest.mark.parametrize("postal", ["MT", "MA", "ME", "HI", "OR", "IN"])
def test_postal_codes_that_look_like_words(postal):
    assert judge_postal(postal.lower(), DECK, postal).verdict is Verdict.RIGHT


def test_postal_another_states_code_is_wrong_and_says_whose():
    judgement = judge_postal("ut", DECK, "CO")
    assert (judgement.verdict, judgement.answered) == (Verdict.WRONG, ("UT",))
    assert "Utah" in judgement.note


@pytest.mark.parametrize("typed", ["OC", "CL", "COL", "C"])
def test_postal_no_slips(typed):
    assert judge_postal(typed, DECK, "CO").verdict is Verdict.WRONG


def test_postal_a_full_name_asks_for_the_code():
    judgement = judge_postal("Colorado", DECK, "CO")
    assert judgement.verdict is Verdict.WRONG
    assert "Type the two-letter code" in judgement.note


# --------------------------------------------------------------------------- rankings


@pytest.mark.parametrize(
    ("number", "shown"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (8, "8th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
    ]
    + [(21, "21st"), (22, "22nd"), (23, "23rd"), (30, "30th"), (42, "42nd"), (50, "50th")],
)
def test_ordinal(number, shown):
    assert ordinal(number) == shown


@pytest.mark.parametrize(
    "typed",
    [
        "8",
        "8th",
        "#8",
        " 8 ",
        "eighth",
        "Eight",
        "number 8",
        "No. 8",
        "8 th",
        "the 8th",
        "08",
        "８",
    ],
)
def test_rank_readable_forms(typed):
    judgement = judge_rank(typed, DECK, "CO", Category.SIZE)
    assert (judgement.verdict, judgement.expected) == (Verdict.RIGHT, "8th")


@pytest.mark.parametrize(
    ("typed", "number"), [("twenty-first", 21), ("Thirty eighth", 38), ("fourty-two", 42)]
)
def test_rank_number_words(typed, number):
    state = next(s for s in DECK if s.statehood_rank == number)
    assert judge_rank(typed, DECK, state.postal, Category.STATEHOOD).verdict is Verdict.RIGHT


@pytest.mark.parametrize(
    "typed", ["0", "51", "-8", "−3", "8.5", "1,000", "eight and a half", "lots", "99999", "8/10"]
)
def test_rank_unreadable(typed):
    with pytest.raises(UnreadableAnswer) as caught:
        judge_rank(typed, DECK, "CO", Category.SIZE)
    assert str(caught.value) == RANK_MESSAGE


@pytest.mark.parametrize(
    ("typed", "verdict"),
    [
        ("8", Verdict.RIGHT),
        ("7", Verdict.CLOSE),
        ("9", Verdict.CLOSE),
        ("6", Verdict.CLOSE),
        ("10", Verdict.CLOSE),
    ]
    + [("5", Verdict.WRONG), ("11", Verdict.WRONG), ("50", Verdict.WRONG)],
)
def test_rank_exact_within_two_or_wrong(typed, verdict):
    assert judge_rank(typed, DECK, "CO", Category.SIZE).verdict is verdict


@pytest.mark.parametrize(
    ("category", "typed", "note"),
    [
        (Category.SIZE, "9", "Close: Colorado ranks 8th in size."),
        (Category.POPULATION, "20", "Close: Colorado ranks 22nd in population."),
        (Category.STATEHOOD, "36", "Close: Colorado was the 38th state to join the Union."),
        (Category.SIZE, "1", "Colorado ranks 8th in size."),
    ],
)
def test_rank_notes(category, typed, note):
    assert judge_rank(typed, DECK, "CO", category).note == note


# --------------------------------------------------------------------------- borders


@pytest.mark.parametrize(
    "typed",
    [
        "Kansas, Nebraska, New Mexico, Oklahoma, Utah, Wyoming",
        "utah; wyoming; nebraska; kansas; oklahoma; new mexico",
        "Utah/Wyoming/Nebraska/Kansas/Oklahoma/New Mexico",
        "Utah\nWyoming\nNebraska\nKansas\nOklahoma\nNew Mexico\n",
        "Utah, Wyoming, Nebraska, Kansas, Oklahoma and New Mexico",
        "UT, wy, Ne, KS, ok, NM",
        "Utah, Utah, Wyoming, WY, Nebraska, Kansas, Oklahoma, New Mexico",
        "Utah Wyoming Nebraska Kansas Oklahoma New Mexico",
    ],
)
def test_borders_all_named_is_right(typed):
    judgement = judge_borders(typed, DECK, "CO")
    assert judgement.verdict is Verdict.RIGHT
    assert judgement.expected == "Kansas, Nebraska, New Mexico, Oklahoma, Utah, Wyoming"
    assert sorted(judgement.answered) == sorted(CO_NEIGHBOURS)
    assert (judgement.missed, judgement.wrong, judgement.note) == ((), (), "")


def test_borders_answered_keeps_the_order_typed_without_duplicates():
    judgement = judge_borders("Utah, Kansas, utah", DECK, "CO")
    assert judgement.answered == ("UT", "KS")


def test_borders_partly_named_is_close():
    judgement = judge_borders("Kansas, Nebraska, New Mexico, Oklahoma", DECK, "CO")
    assert judgement.verdict is Verdict.CLOSE
    assert judgement.missed == ("UT", "WY")
    assert judgement.note == "You missed Utah and Wyoming."


def test_borders_with_a_wrong_one_is_close():
    judgement = judge_borders(
        "Kansas, Nebraska, New Mexico, Oklahoma, Utah, Wyoming, Nevada", DECK, "CO"
    )
    assert judgement.verdict is Verdict.CLOSE
    assert (judgement.missed, judgement.wrong) == ((), ("NV",))
    assert judgement.note == "Nevada does not border Colorado."


def test_borders_partly_named_with_wrong_ones():
    judgement = judge_borders("Utah, Nevada, Texas", DECK, "CO")
    assert judgement.verdict is Verdict.CLOSE
    assert judgement.wrong == ("NV", "TX")
    assert "Nevada and Texas do not border Colorado." in judgement.note


def test_borders_only_wrong_ones_is_wrong():
    judgement = judge_borders("Nevada, Arizona", DECK, "CO")
    assert judgement.verdict is Verdict.WRONG
    assert judgement.missed == tuple(sorted(CO_NEIGHBOURS, key=lambda p: DECK[p].name))
    assert judgement.answered == ("NV", "AZ")


def test_borders_naming_the_state_itself():
    judgement = judge_borders("Colorado", DECK, "CO")
    assert judgement.verdict is Verdict.WRONG
    assert judgement.wrong == ("CO",)


def test_borders_a_slipped_name_counts_but_makes_it_close():
    judgement = judge_borders("Kansas, Nebraksa, New Mexico, Oklahoma, Utah, Wyoming", DECK, "CO")
    assert judgement.verdict is Verdict.CLOSE
    assert (judgement.missed, judgement.wrong) == ((), ())
    assert '"Nebraska"' in judgement.note


def test_borders_slip_refused_under_five_letters():
    with pytest.raises(UnreadableAnswer):
        judge_borders("Kansas, Nebraska, New Mexico, Oklahoma, Uath, Wyoming", DECK, "CO")


@pytest.mark.parametrize("postal", ["AK", "HI"])
@pytest.mark.parametrize(
    "typed", ["none", "None.", "no states", "nothing", "0", "no", "NO STATES!"]
)
def test_borders_none_for_alaska_and_hawaii(postal, typed):
    judgement = judge_borders(typed, DECK, postal)
    assert judgement.verdict is Verdict.RIGHT
    assert judgement.expected == f"No states: {DECK[postal].name} borders no other state"


def test_borders_none_for_a_state_with_neighbours_misses_them_all():
    judgement = judge_borders("none", DECK, "CO")
    assert judgement.verdict is Verdict.WRONG
    assert sorted(judgement.missed) == sorted(CO_NEIGHBOURS)
    assert judgement.answered == ()


@pytest.mark.parametrize(("typed", "postal"), [("Washington", "AK"), ("California, Oregon", "HI")])
def test_borders_naming_states_for_an_island_is_wrong(typed, postal):
    judgement = judge_borders(typed, DECK, postal)
    assert judgement.verdict is Verdict.WRONG
    assert judgement.wrong == judgement.answered
    assert "borders no other state" in judgement.note


def test_borders_unknown_item_is_unreadable():
    with pytest.raises(UnreadableAnswer) as caught:
        judge_borders("Kansas, Nebrasc, Utah", DECK, "CO")
    assert str(caught.value) == "We don't know a state called 'Nebrasc'. Check the spelling."


def test_borders_none_mixed_with_states_is_unreadable():
    with pytest.raises(UnreadableAnswer):
        judge_borders("Utah, none", DECK, "CO")


def test_borders_only_separators_is_blank():
    with pytest.raises(UnreadableAnswer) as caught:
        judge_borders(", , and ;", DECK, "CO")
    assert str(caught.value) == EMPTY_MESSAGE


# --------------------------------------------------------------------------- time zones


@pytest.mark.parametrize(
    ("typed", "postal"),
    [
        ("Mountain", "CO"),
        ("mountain time", "CO"),
        ("Mountain Time Zone", "CO"),
        ("MT", "CO"),
        ("Mt.", "CO"),
        ("MST", "CO"),
        ("mdt", "CO"),
        ("Eastern", "NY"),
        ("ET", "NY"),
        ("EST", "NY"),
        ("EDT", "NY"),
        ("eastern standard time", "NY"),
        ("Central", "IL"),
        ("CT", "IL"),
        ("CST", "IL"),
        ("CDT", "IL"),
        ("Pacific", "CA"),
        ("PT", "CA"),
        ("PST", "CA"),
        ("PDT", "CA"),
        ("Alaska", "AK"),
        ("AKST", "AK"),
        ("AKT", "AK"),
        ("Hawaii-Aleutian", "HI"),
        ("hawaii aleutian time", "HI"),
        ("Hawaii", "HI"),
        ("HST", "HI"),
    ],
)
def test_zone_names_and_abbreviations(typed, postal):
    judgement = judge_zone(typed, DECK, postal)
    assert judgement.verdict is Verdict.RIGHT
    assert judgement.expected == DECK[postal].zone.value


@pytest.mark.parametrize(
    ("typed", "postal"),
    [("Mountian", "CO"), ("Estern", "NY"), ("Pacfic", "CA"), ("Centrall", "IL")],
)
def test_zone_one_slip_is_close(typed, postal):
    judgement = judge_zone(typed, DECK, postal)
    assert judgement.verdict is Verdict.CLOSE
    assert judgement.note == f'Nearly! It is spelled "{DECK[postal].zone.value}".'


def test_zone_slip_refused_for_short_abbreviations():
    assert judge_zone("MTS", DECK, "CO").verdict is Verdict.WRONG


def test_zone_secondary_is_close():
    judgement = judge_zone("Eastern", DECK, "TN")
    assert judgement.verdict is Verdict.CLOSE
    assert judgement.note == "Part of Tennessee is on Eastern time, but the card's zone is Central."
    assert judge_zone("Hawaii-Aleutian", DECK, "AK").verdict is Verdict.CLOSE


@pytest.mark.parametrize(
    ("typed", "postal"), [("Pacific", "CO"), ("Eastern", "CO"), ("Mountain", "HI"), ("blue", "CO")]
)
def test_zone_wrong(typed, postal):
    judgement = judge_zone(typed, DECK, postal)
    assert judgement.verdict is Verdict.WRONG
    assert DECK[postal].zone.value in judgement.note


# --------------------------------------------------------------------------- properties

_PUNCTUATION = ".,'’-!?()\"/:;ʻ"
_COMBINING = [chr(c) for c in range(0x300, 0x370)]


@st.composite
def _disguised(draw: st.DrawFn, text: str) -> str:
    """``text`` with case, spacing, punctuation and accents changed at random, letters untouched."""
    out: list[str] = [draw(st.sampled_from(["", " ", "  ", "\t", "\n "]))]
    for char in text:
        if char == " ":
            out.append(draw(st.sampled_from([" ", "  ", "   ", " - ", ". ", "\t"])))
            continue
        out.append(char.upper() if draw(st.booleans()) else char.lower())
        if char.isalpha() and draw(st.integers(0, 4)) == 0:
            out.append(draw(st.sampled_from(_COMBINING)))
        if draw(st.integers(0, 6)) == 0:
            out.append(draw(st.sampled_from(list(_PUNCTUATION) + [" "])))
    out.append(draw(st.sampled_from(["", " ", ".", "!", " \n"])))
    return "".join(out)


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from(STATES), st.sampled_from(["name", "capital"]))
def test_property_case_spacing_punctuation_and_accents_do_not_matter(data, state, what):
    answer = getattr(state, what)
    typed = data.draw(_disguised(answer))
    judge = judge_state_name if what == "name" else judge_capital
    judgement = judge(typed, DECK, state.postal)
    assert judgement.verdict is Verdict.RIGHT, (typed, judgement)
    assert judgement.answered == (state.postal,)


def _letters(text: str) -> int:
    return sum(c.isalpha() for c in text)


@st.composite
def _one_slip(draw: st.DrawFn, text: str) -> str:
    """``text`` with one letter inserted, deleted, substituted, or two adjacent letters swapped."""
    letters = [i for i, c in enumerate(text) if c.isalpha()]
    kind = draw(st.sampled_from(["insert", "delete", "substitute", "swap"]))
    new = draw(st.sampled_from(string.ascii_lowercase))
    if kind == "insert":
        at = draw(st.integers(0, len(text)))
        return text[:at] + new + text[at:]
    if kind == "delete":
        at = draw(st.sampled_from(letters))
        return text[:at] + text[at + 1 :]
    if kind == "substitute":
        at = draw(st.sampled_from(letters))
        return text[:at] + new + text[at + 1 :]
    pairs = [i for i in letters if i + 1 < len(text) and text[i + 1].isalpha()]
    at = draw(st.sampled_from(pairs))
    return text[:at] + text[at + 1] + text[at] + text[at + 2 :]


@settings(max_examples=200, deadline=None)
@given(st.data(), st.sampled_from([s for s in STATES if _letters(s.name) >= 5]))
def test_property_one_slip_in_a_long_name_is_never_wrong_unless_it_is_another_name(data, state):
    typed = data.draw(_one_slip(state.name))
    assume(normalize(typed))
    judgement = judge_state_name(typed, DECK, state.postal)
    others = [
        s.postal for s in DECK if s.postal != state.postal and _compact(s.name) == _compact(typed)
    ]
    if others:
        assert (judgement.verdict, judgement.answered) == (Verdict.WRONG, tuple(others))
    else:
        assert judgement.verdict in (Verdict.RIGHT, Verdict.CLOSE), (typed, judgement)
        if judgement.verdict is Verdict.CLOSE:
            assert state.name in judgement.note


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(STATES), st.sampled_from(list(Category)), st.integers(1, 50))
def test_property_rank_verdict_depends_only_on_the_distance(state, category, number):
    off = abs(number - state.rank(category))
    expected = Verdict.RIGHT if off == 0 else Verdict.CLOSE if off <= 2 else Verdict.WRONG
    judgement = judge_rank(str(number), DECK, state.postal, category)
    assert judgement.verdict is expected
    assert judgement.expected == ordinal(state.rank(category))
    assert judge_rank(ordinal(number), DECK, state.postal, category).verdict is expected


@settings(max_examples=100, deadline=None)
@given(st.data(), st.sampled_from(STATES))
def test_property_postal_codes_in_any_case_and_punctuation(data, state):
    typed = data.draw(_disguised(state.postal))
    assert judge_postal(typed, DECK, state.postal).verdict is Verdict.RIGHT


def test_combining_marks_used_by_the_properties_are_marks():
    assert all(unicodedata.category(c).startswith("M") for c in _COMBINING)
