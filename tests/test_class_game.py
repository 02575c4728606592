"""GeoPlunge Live, the class game's rules (trainer.class_game, issue 23): the deal, what a device
may see, the judging and points, the teacher's controls, the timer, teams and standings.
Rulings C-G1 to C-G14 (docs/RULINGS.md)."""

from __future__ import annotations

import json
import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer import class_game as cg
from trainer.cards import Category, Deck, load_deck
from trainer.class_game import (
    AnswerRow,
    BadAnswer,
    GameError,
    Kind,
    Phase,
    Progress,
    Settings,
    Standing,
    Standings,
)
from trainer.facts import Facet, Fact, Verdict, all_facts
from trainer.modes import MODES
from trainer.quiz.border_up import centres, groups
from trainer.quiz.state_iq import clue_plan, consistent


@cache
def deck() -> Deck:
    return load_deck()


def settings_of(**kw: object) -> Settings:
    base: dict[str, object] = {"kinds": (Kind.FIND,), "length": 5, "seconds": 20}
    return Settings(**{**base, **kw})  # type: ignore[arg-type]


def dealt(kinds: list[Kind], length: int = 12, focus: tuple[str, ...] = (), seed: int = 1):
    return cg.deal(deck(), kinds=kinds, length=length, focus=focus, seed=seed)


def one(kind: Kind, focus: tuple[str, ...] = (), seed: int = 1) -> cg.Question:
    return dealt([kind], 1, focus, seed)[0]


ALL_KEYS = [f.key for f in all_facts(load_deck())]


# --- The deal -------------------------------------------------------------------------------


def test_the_deal_is_the_same_for_the_same_arguments_and_differs_with_the_seed():
    """C-G1: a game stored as its seed and settings is dealt again exactly."""
    kinds = list(Kind)
    focus = ("OH:map", "TX:size", "IL:borders", "CA:capital")
    assert dealt(kinds, 30, focus, 7) == dealt(kinds, 30, focus, 7)
    assert dealt(kinds, 30, focus, 7) != dealt(kinds, 30, focus, 8)


def test_the_deal_uses_the_kinds_in_turn_and_honours_the_length():
    """C-G1: round robin over the kinds, in the order given; numbers 0, 1, 2..."""
    kinds = [Kind.CAPITAL, Kind.RANKS, Kind.FIND]
    qs = dealt(kinds, 7)
    assert len(qs) == 7
    assert [q.kind for q in qs] == [kinds[i % 3] for i in range(7)]
    assert [q.number for q in qs] == list(range(7))


@pytest.mark.parametrize("length", [0, -1, cg.MAX_QUESTIONS + 1])
def test_the_deal_refuses_a_length_out_of_range(length):
    with pytest.raises(ValueError):
        dealt([Kind.FIND], length)


def test_the_deal_refuses_no_kinds():
    with pytest.raises(ValueError):
        dealt([], 3)


def test_the_focus_facts_come_first_weakest_first():
    """C-G1: each question is built on the next focus fact that suits its kind."""
    focus = ("ME:map", "FL:map", "WA:map", "TX:map", "MN:map")  # far apart: never neighbours
    qs = dealt([Kind.FIND], 5, focus)
    assert [q.facts for q in qs] == [(key,) for key in focus]
    assert [q.prompt for q in qs][0] == "Find Maine on the map."


def test_a_focus_fact_goes_to_the_kind_its_facet_suits():
    """C-G1: map -> FIND/RED_STATE/CLUES, capital -> CAPITAL, borders -> BORDER_UP, a ranking ->
    RANKS; a postal or zone fact suits no kind and is passed over."""
    focus = ("ME:postal", "OR:capital", "FL:map", "TX:size", "OH:borders")
    qs = dealt([Kind.RANKS, Kind.CAPITAL, Kind.FIND, Kind.BORDER_UP], 4, focus)
    assert "TX:size" in qs[0].facts
    assert qs[1].facts == ("OR:capital",)
    assert qs[2].facts == ("FL:map",)
    assert qs[3].facts == ("OH:borders",)


def test_a_kind_with_no_focus_fact_left_draws_from_the_focus_states_then_the_deck():
    """C-G1: CAPITAL with only map facts in focus asks a focus state's capital first."""
    focus = ("ME:map", "FL:map")
    qs = dealt([Kind.CAPITAL], 3, focus)
    states = [Fact.from_key(q.facts[0]).postal for q in qs]
    assert set(states[:2]) == {"ME", "FL"}
    assert all(Fact.from_key(q.facts[0]).facet is Facet.CAPITAL for q in qs)


def test_focus_keys_that_are_no_fact_are_left_out():
    """C-G1: a key that is no fact of the deck is passed over, not an error."""
    qs = dealt([Kind.FIND], 2, ("nonsense", "ZZ:map", "OH:nope", "WA:map"))
    assert qs[0].facts == ("WA:map",)


def test_a_ranks_question_takes_its_second_state_from_the_focus():
    """C-G1: the other state of a RANKS question is the next focus fact of the same ranking."""
    q = one(Kind.RANKS, ("TX:population", "ME:population"))
    assert set(q.facts) == {"TX:population", "ME:population"}
    assert set(q.options) == {"TX", "ME"}
    assert q.answer == "TX"
    assert "more people in 2010" in q.prompt


@pytest.mark.parametrize(
    ("category", "words"),
    [
        (Category.SIZE, "bigger"),
        (Category.STATEHOOD, "joined the Union first"),
        (Category.POPULATION, "more people in 2010"),
    ],
)
def test_a_ranks_question_asks_the_card_ranking_and_the_better_rank_wins(category, words):
    facet = Facet(category.slug)
    q = one(Kind.RANKS, (f"RI:{facet.value}", f"AK:{facet.value}"))
    a, b = (deck()[p] for p in q.options)
    assert words in q.prompt and a.name in q.prompt and b.name in q.prompt
    assert q.answer == min(q.options, key=lambda p: deck()[p].rank(category))


def test_a_red_state_question_is_a_map_card_with_four_states_to_choose_from():
    q = one(Kind.RED_STATE, ("VT:map",))
    assert q.map_postal == "VT" == q.answer
    assert len(q.options) == cg.CHOICES == len(set(q.options))
    assert "VT" in q.options and q.facts == ("VT:map",)


def test_a_capital_question_offers_four_capitals():
    q = one(Kind.CAPITAL, ("OH:capital",))
    assert q.answer == "Columbus" and q.facts == ("OH:capital",)
    assert len(q.options) == 4 and "Columbus" in q.options
    assert set(q.options) <= {s.capital for s in deck()}


def test_a_find_question_offers_every_state():
    q = one(Kind.FIND, ("OH:map",))
    assert q.prompt == "Find Ohio on the map."
    assert set(q.options) == {s.postal for s in deck()} and q.answer == "OH"


def test_a_clue_chain_follows_a_power_card_and_narrows_to_the_state():
    """C-G4: the clues begin with a Power card's clues in its clue order (Q1); more follow while
    more than one state fits, at most MAX_CLUES; the state fits every clue."""
    state = deck()["PA"]
    codes = set()
    for seed in range(60):
        card = random.Random(seed).choice(deck().power_cards)  # the chain's first draw
        codes.add(card.clue_code)
        clues = cg.clue_chain(state, deck(), random.Random(seed))
        plan = [slot for slot in clue_plan(card.clue_code) if slot is not None]
        assert [c.slot for c in clues[: len(plan)]] == plan
        assert state in consistent(clues, deck())
        assert len(consistent(clues, deck())) == 1 or len(clues) == cg.MAX_CLUES
    assert len(codes) > 5
    for seed in range(10):
        q = one(Kind.CLUES, ("PA:map",), seed)
        assert q.facts == ("PA:map",) and q.answer == "PA"
        assert 1 <= len(q.clues) <= cg.MAX_CLUES
        assert set(q.options) == {s.postal for s in deck()}


def test_a_state_with_no_border_states_says_so_once():
    """C-G4: "It borders no other state." is one clue, however many B letters the card has."""
    hawaii = deck()["HI"]
    seed = next(
        s for s in range(200) if random.Random(s).choice(deck().power_cards).clue_code == "BBB"
    )
    texts = [c.text(deck()) for c in cg.clue_chain(hawaii, deck(), random.Random(seed))]
    assert texts.count("It borders no other state.") == 1


def test_a_border_up_question_holds_exactly_one_trio_centred_on_the_focus_state():
    """C-G5: six cards, exactly one winning group (B1), its centre the focus state."""
    for seed in range(30):
        q = one(Kind.BORDER_UP, ("MO:borders",), seed)
        assert len(q.options) == cg.BORDER_UP_CARDS == len(set(q.options))
        found = groups(q.options, deck())
        assert len(found) == 1
        assert q.answer == "+".join(sorted(found[0]))
        assert "MO" in centres(found[0], deck())
        assert q.facts == ("MO:borders",)


def test_an_island_state_never_centres_a_border_up_question():
    q = one(Kind.BORDER_UP, ("HI:borders", "AK:borders", "GA:borders"))
    assert q.facts == ("GA:borders",)


def test_no_state_is_in_two_questions_in_a_row():
    """C-G3: Ohio's map, then Ohio's capital: another state comes between them."""
    qs = dealt([Kind.FIND, Kind.CAPITAL], 4, ("OH:map", "OH:capital"))
    assert qs[0].facts == ("OH:map",)
    assert "OH" not in cg.question_states(qs[1], deck())
    assert qs[3].facts == ("OH:capital",)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    kinds=st.lists(st.sampled_from(list(Kind)), min_size=1, max_size=6, unique=True),
    length=st.integers(1, cg.MAX_QUESTIONS),
    focus=st.lists(st.sampled_from(ALL_KEYS), max_size=40, unique=True),
)
def test_every_deal_keeps_the_rules(seed, kinds, length, focus):
    """C-G1, C-G3, C-G5 over random games: the length and kinds, answers among the options, one
    trio among six cards, no state in two questions in a row, nothing secret in a public view."""
    qs = cg.deal(deck(), kinds=kinds, length=length, focus=focus, seed=seed)
    assert len(qs) == length
    assert_focus_first(qs, focus)
    assert [q.kind for q in qs] == [kinds[i % len(kinds)] for i in range(length)]
    for before, after in zip(qs, qs[1:], strict=False):
        assert not cg.question_states(before, deck()) & cg.question_states(after, deck())
    for q in qs:
        if q.kind is Kind.BORDER_UP:
            assert set(q.answer.split("+")) <= set(q.options)
            assert len(groups(q.options, deck())) == 1
        else:
            assert q.answer in q.options
        assert len(set(q.options)) == len(q.options)
        assert all(Fact.from_key(key) for key in q.facts)
        assert_public_view_is_clean(q)


def assert_focus_first(qs: tuple[cg.Question, ...], focus: list[str]) -> None:
    """C-G1: each question is on the first focus fact that could be its fact (one that suits its
    kind, not asked yet, of no state of the question before)."""
    used: set[str] = set()
    last: frozenset[str] = frozenset()
    for q in qs:
        could = [
            key
            for key in focus
            if key not in used
            and Fact.from_key(key).facet in cg.KIND_FACETS[q.kind]
            and Fact.from_key(key).postal not in last
            and (
                q.kind is not Kind.BORDER_UP
                or len([n for n in deck().neighbours(key[:2]) if n.postal not in last]) >= 2
            )
        ]
        if could:
            assert could[0] in q.facts, (q, could)
        used.update(q.facts)
        last = cg.question_states(q, deck())


# --- What a device may see ------------------------------------------------------------------


def assert_public_view_is_clean(q: cg.Question) -> None:
    view = cg.public_view(q, clues_shown=len(q.clues))
    text = json.dumps(view)  # JSON-safe
    assert set(view) >= {"number", "kind", "prompt", "options"}
    assert not {"answer", "facts", "map_postal"} & set(view)
    for key in q.facts:
        assert key not in text
    if q.map_postal is not None:  # the red state is one of four options, never named apart
        assert text.count(f'"{q.map_postal}"') == 1
    if q.kind is Kind.BORDER_UP:
        assert q.answer not in text


def test_a_public_view_shows_the_clues_so_far_and_never_the_secrets():
    q = one(Kind.CLUES, ("TX:map",), seed=3)
    view = cg.public_view(q, clues_shown=1)
    assert view["clues"] == [q.clues[0]] and view["clues_total"] == len(q.clues)
    assert cg.public_view(q)["clues"] == []
    assert cg.public_view(q, 99)["clues"] == list(q.clues)
    for kind in Kind:
        assert_public_view_is_clean(one(kind, seed=5))
    red = one(Kind.RED_STATE, ("VT:map",))
    assert "map_postal" not in json.dumps(cg.public_view(red))


# --- Judging --------------------------------------------------------------------------------


def test_a_right_answer_scores_and_reviews_its_fact_right():
    q = one(Kind.FIND, ("OH:map",))
    judged = cg.judge(q, "OH", deck())
    assert judged == cg.Judged(True, Verdict.RIGHT, cg.POINTS, (("OH:map", Verdict.RIGHT),), "OH")


def test_a_wrong_answer_scores_nothing_and_names_the_state_answered():
    q = one(Kind.FIND, ("OH:map",))
    judged = cg.judge(q, "IN", deck())
    assert judged == cg.Judged(False, Verdict.WRONG, 0, (("OH:map", Verdict.WRONG),), "IN")


def test_a_typed_state_name_is_read_as_its_state():
    """C-G5: a name or a code in any case, read as trainer.facts reads a state (P-H6)."""
    q = one(Kind.CLUES, ("NY:map",))
    assert cg.judge(q, "new york", deck(), clues_seen=1).right
    assert cg.judge(q, "ny", deck(), clues_seen=1).right
    with pytest.raises(BadAnswer):
        cg.judge(q, "New Yrok", deck())


@pytest.mark.parametrize("kind", list(Kind))
def test_an_answer_not_among_the_options_is_refused(kind):
    """C-G5: BadAnswer, so the web records nothing."""
    q = one(kind, seed=2)
    bad = ["", "Atlantis", "XX+YY+ZZ"]
    outside = next((s.postal for s in deck() if s.postal not in q.options), "")
    if kind in (Kind.RED_STATE, Kind.BORDER_UP, Kind.RANKS):
        bad.append(outside)
    if kind is Kind.CAPITAL:
        bad.append(next(s.capital for s in deck() if s.capital not in q.options))
    if kind is Kind.BORDER_UP:
        a, b, _c = q.answer.split("+")
        bad += [f"{a}+{b}", f"{a}+{b}+{a}", f"{a}+{b}+{outside}", f"{q.answer}+{q.options[0]}"]
    for answer in bad:
        with pytest.raises(BadAnswer):
            cg.judge(q, answer, deck())
    assert issubclass(BadAnswer, ValueError)


def test_a_capital_is_judged_as_picked_with_case_and_accents_ignored():
    q = one(Kind.CAPITAL, ("OH:capital",))
    assert cg.judge(q, "columbus", deck()).right
    wrong = next(o for o in q.options if o != "Columbus")
    judged = cg.judge(q, wrong, deck())
    assert not judged.right and judged.answered_postal == next(
        s.postal for s in deck() if s.capital == wrong
    )


def test_a_border_up_trio_is_right_in_any_order():
    """C-G5: the three postal codes joined by "+" (or commas), in any order; the centre's borders
    are reviewed."""
    q = one(Kind.BORDER_UP, ("MO:borders",))
    a, b, c = q.answer.split("+")
    for answer in (f"{c}+{a}+{b}", f"{b.lower()} + {c} + {a}", f"{a},{c},{b}"):
        judged = cg.judge(q, answer, deck())
        assert judged.right and judged.points == cg.POINTS
        assert judged.reviews == (("MO:borders", Verdict.RIGHT),)
    other = next(p for p in q.options if p not in (a, b, c))
    judged = cg.judge(q, f"{a}+{b}+{other}", deck())
    assert not judged.right and judged.reviews == (("MO:borders", Verdict.WRONG),)


def test_a_ranks_answer_reviews_both_states_ranking():
    q = one(Kind.RANKS, ("TX:size", "RI:size"))
    judged = cg.judge(q, "RI", deck())
    assert not judged.right
    assert set(judged.reviews) == {("TX:size", Verdict.WRONG), ("RI:size", Verdict.WRONG)}
    assert cg.judge(q, "Texas", deck()).right


def test_clue_points_fall_with_the_clues_seen():
    """C-G2: 100 after the first clue, falling evenly, at least 20, rounded half up."""
    assert [cg.clue_points(3, n) for n in (1, 2, 3)] == [100, 67, 33]
    assert [cg.clue_points(2, n) for n in (1, 2)] == [100, 50]
    assert cg.clue_points(6, 6) == 20 > 100 / 6
    assert cg.clue_points(8, 8) == cg.MIN_CLUE_POINTS
    assert cg.clue_points(3, 0) == 100  # answered as the question opened: the first clue's points
    assert cg.clue_points(3, 9) == 33  # counted as every clue
    assert cg.clue_points(0, 1) == cg.POINTS


def test_a_clues_answer_scores_fewer_points_the_more_clues_were_seen():
    """C-G2."""
    for seed in range(20):
        q = one(Kind.CLUES, ("TX:map",), seed)
        if len(q.clues) >= 2:
            break
    points = [
        cg.judge(q, q.answer, deck(), clues_seen=n).points for n in range(1, len(q.clues) + 1)
    ]
    assert points[0] == cg.POINTS
    assert points == sorted(points, reverse=True) and points[-1] < points[0]
    assert cg.judge(q, "AK" if q.answer != "AK" else "HI", deck(), clues_seen=1).points == 0


def test_other_kinds_score_the_same_whatever_the_clues():
    q = one(Kind.FIND, ("OH:map",))
    assert cg.judge(q, "OH", deck(), clues_seen=5).points == cg.POINTS


# --- The teacher's controls -----------------------------------------------------------------

S = settings_of()
LOBBY = Progress(Phase.LOBBY, -1)
Q0 = Progress(Phase.QUESTION, 0, clues_shown=1)


def step(p: Progress, *actions: str, settings: Settings = S, questions: int = 3) -> Progress:
    for action in actions:
        p = cg.advance(p, action, settings, questions)
    return p


def test_start_opens_the_first_question_with_its_first_clue_on_show():
    """C-G6."""
    assert step(LOBBY, "start") == Q0


def test_a_game_goes_question_reveal_standings_next_to_the_end():
    """C-G6: the usual round."""
    p = step(LOBBY, "start", "reveal")
    assert p == Progress(Phase.REVEAL, 0, clues_shown=1)
    p = step(p, "standings")
    assert p.phase is Phase.STANDINGS and p.question == 0
    p = step(p, "next")
    assert p == Progress(Phase.QUESTION, 1, clues_shown=1)
    assert step(p, "reveal", "next") == Progress(Phase.QUESTION, 2, clues_shown=1)
    assert step(p, "reveal", "next", "reveal", "next") == Progress(Phase.ENDED, 2)
    assert step(p, "reveal", "next", "reveal", "standings", "next").phase is Phase.ENDED


def test_with_no_standings_the_reveal_goes_straight_on():
    """C-G7: "standings" with Standings.NONE is "next"."""
    none = settings_of(standings=Standings.NONE)
    p = step(LOBBY, "start", "reveal", settings=none)
    assert step(p, "standings", settings=none) == Progress(Phase.QUESTION, 1, clues_shown=1)
    assert step(p, "standings", settings=none, questions=1).phase is Phase.ENDED


def test_skip_moves_on_without_a_reveal_and_ends_after_the_last():
    """C-G6."""
    assert step(Q0, "skip") == Progress(Phase.QUESTION, 1, clues_shown=1)
    assert step(Q0, "skip", "skip", "skip") == Progress(Phase.ENDED, 2)
    paused = step(Q0, "pause")
    assert step(paused, "skip") == Progress(Phase.QUESTION, 1, clues_shown=1)


def test_clues_come_one_more_at_a_time_up_to_the_total():
    """C-G6: with the question's number of clues, a clue past the last is refused."""
    p = cg.advance(Q0, "clue", S, 3, clues=3)
    assert p.clues_shown == 2
    p = cg.advance(p, "clue", S, 3, clues=3)
    assert p.clues_shown == 3
    with pytest.raises(GameError, match="Every clue"):
        cg.advance(p, "clue", S, 3, clues=3)
    with pytest.raises(GameError, match="no clues"):
        cg.advance(Q0, "clue", S, 3, clues=0)
    assert cg.advance(Q0, "clue", S, 3).clues_shown == 2  # without the count: capped where read
    assert step(p, "reveal").clues_shown == 3  # the reveal keeps them on show


def test_pause_and_resume_toggle_and_refuse_twice():
    """C-G6: a paused question takes no clue until it is resumed; it may still be revealed."""
    paused = step(Q0, "pause")
    assert paused == Progress(Phase.QUESTION, 0, paused=True, clues_shown=1)
    assert step(paused, "resume") == Q0
    with pytest.raises(GameError, match="paused already"):
        step(paused, "pause")
    with pytest.raises(GameError, match="not paused"):
        step(Q0, "resume")
    with pytest.raises(GameError, match="resume"):
        step(paused, "clue")
    assert step(paused, "reveal") == Progress(Phase.REVEAL, 0, clues_shown=1)


def test_end_ends_from_every_phase_and_an_ended_game_takes_nothing():
    """C-G6."""
    for p in (
        LOBBY,
        Q0,
        step(Q0, "pause"),
        step(Q0, "reveal"),
        step(Q0, "reveal", "standings"),
    ):
        assert step(p, "end").phase is Phase.ENDED
        assert step(p, "end").question == p.question
    ended = step(Q0, "end")
    for action in cg.ACTIONS:
        with pytest.raises(GameError, match="over"):
            step(ended, action)


REVEAL = Progress(Phase.REVEAL, 0, clues_shown=1)
STANDINGS_P = Progress(Phase.STANDINGS, 0, clues_shown=1)
ALLOWED = {
    Phase.LOBBY: {"start", "end"},
    Phase.QUESTION: {"clue", "reveal", "skip", "pause", "end"},
    Phase.REVEAL: {"standings", "next", "end"},
    Phase.STANDINGS: {"next", "end"},
    Phase.ENDED: set(),
}


@pytest.mark.parametrize(
    "progress", [LOBBY, Q0, REVEAL, STANDINGS_P, Progress(Phase.ENDED, 2)], ids=lambda p: p.phase
)
@pytest.mark.parametrize("action", [*cg.ACTIONS, "jump", ""])
def test_every_action_in_every_phase_is_allowed_or_refused_in_a_teachers_words(progress, action):
    """C-G6: the whole table of phases and controls ("resume" only on a paused question)."""
    if action in ALLOWED[progress.phase]:
        after = cg.advance(progress, action, S, 3)
        assert isinstance(after, Progress)
    else:
        with pytest.raises(GameError) as refused:
            cg.advance(progress, action, S, 3)
        assert str(refused.value) and "_" not in str(refused.value)
        assert issubclass(GameError, ValueError)


def test_a_game_with_no_questions_cannot_start():
    with pytest.raises(GameError):
        cg.advance(LOBBY, "start", S, 0)


# --- The timer ------------------------------------------------------------------------------


def test_the_deadline_is_the_seconds_and_more_with_extra_time():
    """C-G8."""
    s = settings_of(seconds=20)
    assert cg.deadline_ms(s, False) == 20_000
    assert cg.deadline_ms(s, True) == 30_000
    assert cg.deadline_ms(settings_of(seconds=15, extra_time=2.0), True) == 30_000
    assert cg.deadline_ms(settings_of(seconds=7, extra_time=1.25), True) == 8_750
    assert cg.deadline_ms(settings_of(seconds=20, extra_time=0.5), True) == 20_000  # never less
    assert cg.deadline_ms(settings_of(seconds=None), True) is None
    assert cg.deadline_ms(settings_of(seconds=None), False) is None


# --- Teams ----------------------------------------------------------------------------------


def test_teams_of_three_with_seven_students_are_three_two_two():
    """C-G9: ceil(7 / 3) = 3 teams, sizes differing by at most 1."""
    teams = cg.make_teams(list(range(1, 8)), 3, seed=4)
    assert set(teams) == set(range(1, 8))
    assert sorted(list(teams.values()).count(t) for t in set(teams.values())) == [2, 2, 3]


def test_teams_never_leave_a_student_alone():
    """C-G9: three students in teams of 2 are one team of 3, not 2 and 1."""
    assert set(cg.make_teams([5, 6, 7], 2, seed=1).values()) == {1}
    assert cg.make_teams([9], 3, seed=1) == {9: 1}
    assert cg.make_teams([], 3, seed=1) == {}


def test_size_one_is_everyone_for_themselves():
    teams = cg.make_teams([30, 10, 20], 1, seed=2)
    assert sorted(teams.values()) == [1, 2, 3] and set(teams) == {10, 20, 30}


def test_teams_are_the_same_for_the_same_seed():
    ids = list(range(100, 125))
    assert cg.make_teams(ids, 3, 9) == cg.make_teams(list(reversed(ids)), 3, 9)
    assert any(cg.make_teams(ids, 3, 9) != cg.make_teams(ids, 3, s) for s in range(10, 15))


@settings(max_examples=200, deadline=None)
@given(
    ids=st.lists(st.integers(1, 10_000), min_size=0, max_size=60, unique=True),
    size=st.integers(1, 6),
    seed=st.integers(0, 10**9),
)
def test_teams_are_as_even_as_may_be(ids, size, seed):
    """C-G9 over random class sizes."""
    teams = cg.make_teams(ids, size, seed)
    assert set(teams) == set(ids)
    assert teams == cg.make_teams(ids, size, seed)
    if not ids:
        return
    counts = [list(teams.values()).count(t) for t in set(teams.values())]
    assert sorted(set(teams.values())) == list(range(1, len(counts) + 1))
    assert max(counts) - min(counts) <= 1
    if size == 1:
        assert counts == [1] * len(ids)
    elif len(ids) >= 2:
        assert min(counts) >= 2
        assert len(counts) <= -(-len(ids) // size)  # never more teams than the size asks


# --- Standings ------------------------------------------------------------------------------


def row(sid: int, question: int, points: int, ms: int | None = 1000) -> AnswerRow:
    return AnswerRow(sid, question, points > 0, points, ms)


def test_points_decide_and_speed_breaks_a_tie():
    """C-G10: with speed, less total time on right answers ranks higher."""
    rows = [row(1, 0, 100, 5000), row(2, 0, 100, 3000), row(3, 0, 0, 100), row(3, 1, 100, 9000)]
    assert cg.standings(rows, None, True) == [
        Standing(1, 2, 100, 1, 3000),
        Standing(2, 1, 100, 1, 5000),
        Standing(3, 3, 100, 1, 9000),
    ]


def test_without_speed_ties_share_a_rank():
    """C-G10: 1, 1, 3."""
    rows = [row(1, 0, 100, 5000), row(2, 0, 100, 3000), row(3, 0, 50)]
    assert [(s.rank, s.key) for s in cg.standings(rows, None, False)] == [(1, 1), (1, 2), (3, 3)]


def test_an_exact_tie_shares_a_rank_even_with_speed():
    rows = [row(1, 0, 100, 4000), row(2, 0, 100, 4000), row(3, 0, 0)]
    assert [s.rank for s in cg.standings(rows, None, True)] == [1, 1, 3]


def test_students_with_no_answers_are_in_the_standings_at_0():
    """C-G10: every student of the teams (or of ``students``) appears."""
    found = cg.standings([row(1, 0, 100)], None, True, students=[1, 2])
    assert [(s.key, s.points, s.right, s.ms) for s in found] == [(1, 100, 1, 1000), (2, 0, 0, 0)]
    teams = {1: 1, 2: 2}
    assert [(s.key, s.points) for s in cg.standings([row(1, 0, 100)], teams, True)] == [
        (1, 100),
        (2, 0),
    ]


def test_only_right_answers_count_toward_the_time_and_an_unknown_time_counts_0():
    found = cg.standings([row(1, 0, 0, 9000), row(1, 1, 100, None)], None, True)
    assert found == [Standing(1, 1, 100, 1, 0)]


def test_a_second_answer_to_one_question_is_not_counted():
    found = cg.standings([row(1, 0, 100), row(1, 0, 100)], None, True)
    assert found[0].points == 100 and found[0].right == 1


def test_a_team_of_two_is_not_behind_a_team_of_three():
    """C-G11: a team's points are its members' mean, rounded half up; a member with no answers
    counts 0."""
    teams = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2}
    rows = [row(1, 0, 100), row(2, 0, 100), row(3, 0, 100), row(4, 0, 100), row(5, 0, 100)]
    found = cg.standings(rows, teams, False)
    assert [(s.rank, s.key, s.points, s.right) for s in found] == [(1, 1, 100, 3), (1, 2, 100, 2)]
    rows = [row(1, 0, 100), row(2, 0, 100), row(4, 0, 100), row(5, 0, 50)]  # 3 answered nothing
    found = cg.standings(rows, teams, False)
    assert [(s.key, s.points) for s in found] == [(2, 75), (1, 67)]


def test_team_ties_are_broken_by_the_members_mean_time():
    """C-G11."""
    teams = {1: 1, 2: 1, 3: 2, 4: 2}
    rows = [row(1, 0, 100, 1000), row(2, 0, 100, 3000), row(3, 0, 100, 1000), row(4, 0, 100, 1000)]
    found = cg.standings(rows, teams, True)
    assert [(s.rank, s.key, s.ms) for s in found] == [(1, 2, 1000), (2, 1, 2000)]


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(
        st.builds(
            AnswerRow,
            st.integers(1, 12),
            st.integers(0, 9),
            st.booleans(),
            st.sampled_from([0, 20, 33, 50, 67, 100]),
            st.one_of(st.none(), st.integers(0, 30_000)),
        ),
        max_size=80,
    ),
    speed=st.booleans(),
    team_size=st.integers(1, 4),
)
def test_standings_are_ordered_and_ranked_over_random_answers(rows, speed, team_size):
    """C-G10, C-G11 over random rows: best first, ranks 1-based and shared only by equals,
    everyone present once."""
    rows = [AnswerRow(r.student_id, r.question, r.points > 0, r.points, r.ms) for r in rows]
    ids = sorted({r.student_id for r in rows} | {1, 2})
    teams = cg.make_teams(ids, team_size, 1) if team_size > 1 else None
    found = cg.standings(rows, teams, speed, students=ids)
    keys = [s.key for s in found]
    assert len(keys) == len(set(keys))
    assert set(keys) == (set(teams.values()) if teams else set(ids))
    assert found[0].rank == 1
    for i, (a, b) in enumerate(zip(found, found[1:], strict=False)):
        assert a.points >= b.points
        same = a.points == b.points and (not speed or a.ms == b.ms)
        if speed and a.points == b.points:
            assert a.ms <= b.ms
        assert b.rank == (a.rank if same else i + 2)
    assert sum(s.points for s in found) <= sum(
        sum(r.points for r in rows if r.student_id == sid) for sid in ids
    )


# --- What the projector shows ---------------------------------------------------------------


def lines(*pairs: tuple[int, int]) -> list[Standing]:
    return [Standing(rank, key, 100 - rank, 1, 0) for rank, key in pairs]


def test_the_top_five_includes_ties_at_fifth():
    """C-G12."""
    all_ = lines((1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (5, 6), (7, 7))
    assert [s.key for s in cg.shown_standings(all_, Standings.TOP_FIVE)] == [1, 2, 3, 4, 5, 6]
    assert len(cg.shown_standings(lines(*[(i, i) for i in range(1, 30)]), Standings.TOP_FIVE)) == 5


def test_the_top_five_never_names_a_student_with_no_points():
    """C-G12: names are never shown beside low scores."""
    found = cg.standings([row(1, 0, 100)], None, True, students=[1, 2, 3])
    assert [s.key for s in cg.shown_standings(found, Standings.TOP_FIVE)] == [1]


def test_teams_shows_every_team_and_none_shows_nothing():
    """C-G12."""
    all_ = lines((1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7))
    assert cg.shown_standings(all_, Standings.TEAMS) == all_
    assert cg.shown_standings(all_, Standings.NONE) == []


def test_the_distribution_is_most_common_first():
    """C-G14: "9 of you chose Vermont"; a tie puts the right answer first, then by answer."""
    answers = [("VT", False)] * 3 + [("NH", True)] * 3 + [("ME", False)] * 5 + [("MA", False)]
    assert cg.distribution(answers) == [
        ("ME", 5, False),
        ("NH", 3, True),
        ("VT", 3, False),
        ("MA", 1, False),
    ]
    assert cg.distribution([]) == []


# --- The mode -------------------------------------------------------------------------------


def test_the_class_game_is_a_mode_no_student_starts_alone_and_no_teacher_assigns():
    """C-G13: its answers are logged as "live"; it is not assignable, has no share of the
    simulator's sessions and no computer levels."""
    mode = MODES["geoplunge-live"]
    assert mode.mode == cg.LOG_MODE == "live" and mode.title == "GeoPlunge Live"
    assert mode.facets == frozenset(Facet)
    assert not mode.assignable and mode.sessions == 0 and mode.levels == ()
    assert "geoplunge-live" not in [m.slug for m in MODES.assignable()]
    assert [m.slug for m in MODES][-1] == "geoplunge-live"


def test_every_kind_has_a_title():
    assert set(cg.KIND_TITLES) == set(Kind)
    assert all(cg.KIND_TITLES.values())
