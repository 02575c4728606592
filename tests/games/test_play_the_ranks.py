"""Play the Ranks rules (R1, R2; the project's P-R1, P-R2), with the rule text's New York / Colorado examples.

Situations are built by setting a ``RanksState``'s hands, discards, finished tricks, tricks won and
leader directly. Actions: a bare card (``card_action``) discards or follows; a card with a category
(``lead_action``) leads.
"""

from __future__ import annotations

import json

import pytest

from trainer.cards import Category, load_deck
from trainer.games import TERMINAL, GameError, IllegalAction, Params
from trainer.games.play_the_ranks import PlayTheRanks, RanksState

DECK = load_deck()
ALL = sorted(card.postal for card in DECK)
GAME = PlayTheRanks(DECK)
SIZE, STATEHOOD, POPULATION = Category.SIZE, Category.STATEHOOD, Category.POPULATION


def table(
    hand0: list[str],
    hand1: list[str],
    winners: list[int] | tuple[int, ...] = (),
    leader: int | None = None,
) -> RanksState:
    """The trick phase: these hands, both discards made, and tricks already won by ``winners`` in order.

    The leader is the last trick's winner unless given. Cards of earlier tricks and discards come
    from the rest of the deck; what is left is undealt.
    """
    state = RanksState(GAME)
    spare = [p for p in ALL if p not in hand0 and p not in hand1]
    state.hands = [list(hand0), list(hand1)]
    state.discards = [spare.pop(), spare.pop()]
    lead = 0
    for winner in winners:
        state.tricks.append(
            {
                "leader": lead,
                "category": "size",
                "cards": [spare.pop(), spare.pop()],
                "winner": winner,
            }
        )
        lead = winner
    state.won = [list(winners).count(0), list(winners).count(1)]
    state.leader = lead if leader is None else leader
    state.undealt = spare
    return state


def lead(state: RanksState, postal: str, category: Category) -> None:
    state.apply_action(GAME.lead_action(postal, category))


def follow(state: RanksState, postal: str) -> None:
    state.apply_action(GAME.card_action(postal))


def json_strings(tree) -> set[str]:  # type: ignore[no-untyped-def]
    if isinstance(tree, str):
        return {tree}
    if isinstance(tree, dict):
        return set(tree) | {s for v in tree.values() for s in json_strings(v)}
    if isinstance(tree, list):
        return {s for v in tree for s in json_strings(v)}
    return set()


#: Earlier tricks' winners, so that trick ``n`` is next and nobody has reached 6 (R1).
BEFORE = {n: [0, 1, 0, 1, 0, 1, 0][: n - 1] for n in range(1, 9)}


# --- R1: the deal and the discard ----------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_r1_nine_cards_each_and_one_discarded_face_down(seed):
    """R1, P-R1: 9 cards each; the leading side discards first, then the other; both discards stay face down."""
    state = GAME.new_initial_state(seed)
    assert [len(hand) for hand in state.hands] == [9, 9] and len(state.undealt) == 32
    assert state.phase == "discard"
    first = state.leader
    assert state.current_player() == first
    assert state.legal_actions() == sorted(GAME.card_action(p) for p in state.hands[first])
    mine = state.hands[first][0]
    assert state.action_to_string(GAME.card_action(mine)) == f"Discard {DECK[mine].name}"
    follow(state, mine)
    assert state.current_player() == 1 - first and state.phase == "discard"
    theirs = state.observation(1 - first)
    assert mine not in json_strings(json.loads(json.dumps(theirs)))
    assert theirs["discards_made"][first] is True and theirs["discarded"] == []
    assert state.observation(first)["discarded"] == [mine]
    follow(state, state.hands[1 - first][0])
    assert state.phase == "trick"
    assert [len(hand) for hand in state.hands] == [8, 8]
    assert state.current_player() == first
    assert len(state.legal_actions()) == 8 * 3  # any card, any category
    discards = [event for event in state.log if event.text.endswith("a card face down.")]
    assert [event.seat for event in discards] == [first, 1 - first]


def test_r1_a_discard_is_never_shown_to_the_other_side():
    """R1: the other side's discard appears in no observation, from the deal to the end."""
    state = GAME.new_initial_state(4)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
        for seat in (0, 1):
            other = state.discards[1 - seat]
            if other:
                assert other not in json_strings(json.loads(json.dumps(state.observation(seat))))


def test_r1_a_lead_during_the_discard_is_refused():
    """R1: the discard comes first; a lead before it is refused with the reason."""
    state = GAME.new_initial_state(0)
    card = state.hands[state.current_player()][0]
    with pytest.raises(IllegalAction, match=r"^Discard a card first\.$"):
        lead(state, card, SIZE)
    assert state.history == [] and state.discards == [None, None]


# --- R1: who wins a trick ----------------------------------------------------------------------


@pytest.mark.parametrize("new_york_leads", [True, False], ids=["NY-leads", "CO-leads"])
@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_r1_new_york_beats_colorado_on_population_in_tricks_1_to_4(number, new_york_leads):
    """R1, the rule text's example: in tricks 1-4 the lower number wins, so New York (3) beats Colorado (22) on population."""
    state = table(["NY", "TX"], ["CO", "AK"], BEFORE[number], leader=0 if new_york_leads else 1)
    if new_york_leads:
        lead(state, "NY", POPULATION)
        follow(state, "CO")
    else:
        lead(state, "CO", POPULATION)
        follow(state, "NY")
    trick = state.tricks[-1]
    assert len(state.tricks) == number
    assert trick["winner"] == 0 and state.leader == 0
    trick_event = next(e for e in reversed(state.log) if e.kind == "trick")
    assert (
        "New York's population 3 beats Colorado's 22 (lower wins): you take trick"
        in trick_event.text
    )


@pytest.mark.parametrize("colorado_leads", [True, False], ids=["CO-leads", "NY-leads"])
@pytest.mark.parametrize("number", [5, 6, 7, 8])
def test_r1_colorado_beats_new_york_on_statehood_in_tricks_5_to_8(number, colorado_leads):
    """R1, the rule text's example: in tricks 5-8 the higher number wins, so Colorado (38) beats New York (11) on statehood."""
    state = table(["TX", "NY"], ["CO", "AK"], BEFORE[number], leader=1 if colorado_leads else 0)
    if colorado_leads:
        lead(state, "CO", STATEHOOD)
        follow(state, "NY")
    else:
        lead(state, "NY", STATEHOOD)
        follow(state, "CO")
    assert len(state.tricks) == number
    assert state.tricks[-1]["winner"] == 1
    trick_event = next(e for e in reversed(state.log) if e.kind == "trick")
    assert (
        "Colorado's statehood 38 beats New York's 11 (higher wins): the computer takes trick"
        in trick_event.text
    )


@pytest.mark.parametrize(("category", "winner"), [(SIZE, 1), (STATEHOOD, 0), (POPULATION, 0)])
def test_r1_the_lead_chooses_the_category(category, winner):
    """R1: the leading side names the category: on size Colorado (8) beats New York (30) in trick 1."""
    state = table(["NY", "TX"], ["CO", "AK"])
    lead(state, "NY", category)
    assert state.tricks[-1]["category"] == category.slug
    follow(state, "CO")
    assert state.tricks[-1]["winner"] == winner
    assert state.won == [1 - winner, winner]


def test_r1_any_card_may_follow():
    """R1: the other side plays any card: every card in hand, and no category of its own."""
    state = table(["NY", "TX"], ["CO", "AK", "HI"])
    lead(state, "NY", POPULATION)
    assert state.action_to_string(GAME.lead_action("TX", SIZE)) == "Lead Texas on size"
    assert state.current_player() == 1
    assert state.legal_actions() == sorted(GAME.card_action(p) for p in ["CO", "AK", "HI"])
    assert state.action_to_string(GAME.card_action("HI")) == "Play Hawaii"
    with pytest.raises(IllegalAction, match="It is not your lead"):
        lead(state, "CO", SIZE)
    with pytest.raises(IllegalAction, match="not in your hand"):
        follow(state, "TX")


def test_r1_the_lead_names_a_category():
    """R1: a card led without a category is refused."""
    state = table(["NY", "TX"], ["CO", "AK"])
    with pytest.raises(IllegalAction, match="Name a category"):
        follow(state, "NY")
    assert state.tricks == [] and state.history == []


def test_r1_the_trick_winner_leads_the_next_trick():
    """R1: whoever wins a trick leads the next."""
    state = table(["NY", "TX"], ["CO", "AK"])
    lead(state, "NY", SIZE)
    follow(state, "CO")  # Colorado's size 8 beats New York's 30
    assert state.current_player() == 1 and state.leader == 1
    assert state.legal_actions() == sorted(GAME.lead_action("AK", c) for c in Category)


# --- R1: the end -------------------------------------------------------------------------------


@pytest.mark.parametrize("before", [[0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]], ids=["6-0", "6-1"])
def test_r1_six_tricks_end_the_game_early(before):
    """R1: play stops once a side has 6 tricks."""
    state = table(["CO", "TX"], ["NY", "AK"], before, leader=0)
    lead(state, "CO", STATEHOOD)  # a later trick: higher wins
    follow(state, "NY")
    assert state.won[0] == 6 and len(state.tricks) < 8
    assert (
        state.is_terminal() and state.current_player() == TERMINAL and state.legal_actions() == []
    )
    assert state.returns() == [1.0, 0.0] and state.winners() == [0]
    assert (
        state.log[-1].text == f"You win, 6 tricks to {state.won[1]}. Six tricks end the game early."
    )
    with pytest.raises(IllegalAction, match="over"):
        lead(state, "TX", SIZE)


def test_r1_six_tricks_end_the_game_early_for_the_computer_too():
    """R1: the early end applies to either side; the result names the winner's tricks first."""
    state = table(["NY", "TX"], ["CO", "AK"], [1, 1, 1, 1, 1])
    lead(state, "CO", STATEHOOD)
    follow(state, "NY")
    assert state.won == [0, 6] and state.winners() == [1]
    assert state.log[-1].text == "The computer wins, 6 tricks to 0. Six tricks end the game early."


def test_r1_five_of_eight_tricks_win():
    """R1: a side with 5 or more tricks after all 8 wins."""
    state = table(["NY"], ["CO"], [1, 1, 1, 1, 0, 0, 0], leader=1)
    lead(state, "CO", STATEHOOD)
    follow(state, "NY")
    assert state.won == [3, 5] and len(state.tricks) == 8
    assert state.returns() == [0.0, 1.0]
    assert state.log[-1].text == "The computer wins, 5 tricks to 3."


@pytest.mark.parametrize("last", [0, 1])
def test_r1_at_4_4_the_last_trick_decides(last):
    """R1: at 4 tricks each, the side that won the last trick wins."""
    before = [1 - last] * 4 + [last] * 3
    hands = [["TX"], ["AK"]]
    hands[last], hands[1 - last] = ["CO"], ["NY"]
    state = table(*hands, before)
    assert state.leader == last
    lead(state, "CO", STATEHOOD)  # trick 8: Colorado's 38 beats New York's 11
    follow(state, "NY")
    assert state.won == [4, 4] and len(state.tricks) == 8
    assert state.is_terminal()
    assert state.winners() == [last]
    assert state.returns() == ([1.0, 0.0] if last == 0 else [0.0, 1.0])
    who = ("you", "the computer")[last]
    assert (
        state.log[-1].text == f"4-4, and {who} won the last trick: {who} win{'s' if last else ''}."
    )


def test_r1_at_4_4_the_side_that_loses_the_last_trick_loses():
    """R1: a 4-3 lead is not enough when the other side takes the last trick."""
    state = table(["NY"], ["CO"], [0, 0, 0, 1, 0, 1, 1], leader=1)
    assert state.won == [4, 3]
    lead(state, "CO", STATEHOOD)
    follow(state, "NY")
    assert state.won == [4, 4] and state.winners() == [1]


# --- R2 -----------------------------------------------------------------------------------------


def test_r2_the_better_statehood_draw_leads_first():
    """R2, P-R2: each side draws a card; the better (closer to 1) statehood rank leads the first trick and discards first."""
    leaders = set()
    for seed in range(30):
        state = GAME.new_initial_state(seed)
        a, b = (DECK[p] for p in state.drawn)
        assert a.postal != b.postal
        assert state.leader == (0 if a.statehood_rank < b.statehood_rank else 1)
        assert state.current_player() == state.leader
        assert sorted(state.all_cards()) == ALL  # the drawn cards go back (P-R2)
        draw = state.log[0]
        assert draw.text.startswith(f"The draw: you drew {a.name} (") and b.name in draw.text
        leaders.add(state.leader)
    assert leaders == {0, 1}


@pytest.mark.parametrize("first", [0, 1])
def test_r2_the_first_leader_can_be_set_by_an_earlier_game(first):
    """R2: where an earlier game decides who leads (Dashing States in Combo 1), ``first_leader`` sets it and nothing is drawn."""
    game = PlayTheRanks(DECK, Params(first_leader=first))
    for seed in range(10):
        state = game.new_initial_state(seed)
        assert state.leader == first and state.current_player() == first
        assert state.drawn == [] and not [e for e in state.log if e.text.startswith("The draw")]


def test_r2_the_first_leader_must_be_a_player():
    with pytest.raises(GameError, match="one of the players"):
        PlayTheRanks(DECK, Params(first_leader=2))
