"""Forms of the quiz modes."""

from __future__ import annotations

from dataclasses import dataclass

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    HiddenField,
    RadioField,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length

from trainer.cards import Deck
from trainer.games import REGISTRY
from trainer.games.combo import ComboGame
from trainer.games.drill import DrillQuestion
from trainer.quiz.dashing_states import CARDS, Call
from trainer.quiz.state_iq import Level, guess_from_text

from ..guards import Refused, whole_number

LEVEL_LABELS = {
    Level.EASY: "Easy: the computer forgets things and gives helpful clues",
    Level.MEDIUM: "Medium",
    Level.HARD: "Hard: the computer knows every state and gives tricky clues",
}


class NewStateIqForm(FlaskForm):
    """Start a State IQ game."""

    level = RadioField(
        "How good is the computer?",
        choices=[SelectChoice(level.value, LEVEL_LABELS[level]) for level in Level],
        default=Level.MEDIUM.value,
        validators=[DataRequired(message="Choose a level.")],
    )
    show_aid = BooleanField("Show how many states still fit the clues")
    submit = SubmitField("Deal the cards")


class MoveForm(FlaskForm):
    """A guess or a border-state clue: a state's name (or postal code)."""

    turn = HiddenField()
    answer = StringField(
        "State", validators=[Length(max=60, message="That is too long for a state's name.")]
    )
    submit = SubmitField("Go")

    #: The answer's field error when it names no state.
    NO_STATE = "Type the name of one of the 50 states."

    def turn_number(self) -> int | None:
        """The number of moves the page was shown after; None unless ASCII digits."""
        return whole_number(self.turn.data)

    def postal(self, deck: Deck) -> str | None:
        """The state the answer names (by name or postal code, as ``guess_from_text`` reads it),
        or None with the answer field's error set."""
        postal = guess_from_text(self.answer.data or "", deck)
        if postal is None:
            self.answer.errors = [self.NO_STATE]
        return postal


class NewDashingForm(FlaskForm):
    """Start a Dashing States round: a race at a level, or untimed practice."""

    level = RadioField(
        "Race the computer, or practise",
        choices=[
            SelectChoice("easy", "Race an easy computer (about 70 seconds)"),
            SelectChoice("medium", "Race a medium computer (about 45 seconds)"),
            SelectChoice("hard", "Race a hard computer (about 30 seconds)"),
            SelectChoice("practice", "Practise without a clock"),
        ],
        default="medium",
        validators=[DataRequired(message="Choose a race or practice.")],
    )
    submit = SubmitField("Deal the Map cards")


class CardFieldsForm(FlaskForm):
    """A form whose fields the page names after its cards ("place-0", "group-TX") instead of
    declaring them: it keeps the data sent, for its own method to parse."""

    def process(self, formdata=None, obj=None, data=None, extra_filters=None, **kwargs):
        formdata = self.meta.wrap_formdata(self, formdata)
        self.sent = formdata if formdata is not None else {}
        super().process(formdata, obj, data, extra_filters, **kwargs)


#: The longest name or capital a Dashing States call keeps (the inputs' maxlength).
DASHING_ANSWER_MAX = 60
#: A Dashing States call whose places are not 1st to 4th and one card set aside.
DASHING_PLACES = "Give each card its own place: 1st, 2nd, 3rd, 4th, and set one card aside."


class DashingForm(CardFieldsForm):
    """The call: for each of the five cards (0-4), ``place-i`` ("1" to "4" or "aside"), and the
    ``name-i`` and ``capital-i`` typed for it."""

    def call(self) -> Call:
        """The call as the core reads it; the names and capitals cut to 60 characters.

        Raises:
            Refused: the places are not 1st, 2nd, 3rd, 4th and one card set aside.
        """
        places = [self.sent.get(f"place-{i}", "") for i in range(CARDS)]
        aside = [i for i, place in enumerate(places) if place == "aside"]
        ordered = sorted(
            (int(place), i) for i, place in enumerate(places) if place in ("1", "2", "3", "4")
        )
        if len(aside) != 1 or [p for p, _ in ordered] != [1, 2, 3, 4]:
            raise Refused(DASHING_PLACES)
        return Call(
            aside[0],
            tuple(i for _, i in ordered),
            {i: self.sent.get(f"name-{i}", "")[:DASHING_ANSWER_MAX] for i in range(CARDS)},
            {i: self.sent.get(f"capital-{i}", "")[:DASHING_ANSWER_MAX] for i in range(CARDS)},
        )


class NewBorderUpForm(FlaskForm):
    """Start a Border-Up race."""

    level = RadioField(
        "How fast is the computer?",
        choices=[
            SelectChoice("easy", "Easy (about 75 seconds)"),
            SelectChoice("medium", "Medium (about 50 seconds)"),
            SelectChoice("hard", "Hard (about 30 seconds)"),
        ],
        default="medium",
        validators=[DataRequired(message="Choose a level.")],
    )
    submit = SubmitField("Deal the cards")


class BorderUpForm(CardFieldsForm):
    """A Border-Up action (turn the cards over, a hint, the call). The call has a ``group-XX``
    field per card in the hand, "1" or "2" for the group it is put in (anything else: neither)."""

    def groups(self) -> tuple[list[str], list[str]]:
        """The two groups called, as postal codes in the order sent (not checked against the hand:
        the core's ``judge_call`` refuses what is not two groups of three of the hand's cards)."""
        chosen: dict[str, list[str]] = {"1": [], "2": []}
        for key, value in self.sent.items():
            if key.startswith("group-") and value in chosen:
                chosen[value].append(key.removeprefix("group-").upper())
        return chosen["1"], chosen["2"]


#: Every registered card game, in the games page's order, described by itself.
GAME_CHOICES = [SelectChoice(game.slug, f"{game.title}: {game.summary}") for game in REGISTRY]


class NewCardGameForm(FlaskForm):
    """Start a card game against computer players."""

    game = RadioField(
        "Which game?",
        choices=GAME_CHOICES,
        default=GAME_CHOICES[0].value,
        validators=[DataRequired(message="Choose a game.")],
    )
    players = SelectField(
        "Players, counting you",
        choices=[SelectChoice(str(n), str(n)) for n in range(2, 8)],
        default="3",
        description="Computer players fill the other seats. GeoPower Toss is for up to 6; Play the Ranks and Geography War are for 2.",
    )
    team_size = RadioField(
        "Teams",
        choices=[
            SelectChoice("1", "Everyone for themselves"),
            SelectChoice("2", "Teams of 2"),
            SelectChoice("3", "Teams of 3"),
        ],
        default="1",
        description="GeoPlunge 51 and GeoPower Toss: partners sit apart and add up their points (or tricks); your partners are computer players.",
    )
    level = RadioField(
        "How good are the computer players?",
        choices=[
            SelectChoice("easy", "Easy: they play any card"),
            SelectChoice("medium", "Medium: they play sensibly"),
            SelectChoice("hard", "Hard: they think ahead"),
        ],
        default="medium",
        validators=[DataRequired(message="Choose a level.")],
    )
    drill = BooleanField(
        "Drill mode: hide the rankings on my cards, and I say them (each answer is practice)"
    )
    submit = SubmitField("Deal the cards")


#: No ply, action or number of battles of a card game comes near this.
MAX_MOVE_NUMBER = 999_999


@dataclass(frozen=True)
class TableMove:
    """A move at a card game's table, as its form sent it (each number None unless ASCII digits).

    ``ply`` is the version of the game the move was made on; ``battles`` asks Geography War for
    that many battles at once; ``action`` is the move itself; ``number`` and ``call`` are what the
    student said with a drill move.
    """

    ply: int | None
    action: int | None
    battles: int | None = None
    number: str = ""
    call: str = ""

    def answer(self, question: DrillQuestion) -> str:
        """The drill answers' source: a rank is typed in the number box; a call is one of the
        call buttons."""
        return self.call if question.choices else self.number


class CardGameMoveForm(FlaskForm):
    """One move at the table. ``ply`` names the version of the game the move was made on."""

    ply = HiddenField()
    action = HiddenField()
    number = StringField(
        "Its ranking", validators=[Length(max=20, message="Type a number from 1 to 50.")]
    )
    call = HiddenField()
    battles = HiddenField()
    #: Drill mode: the hidden ranking peeked at (a fact key, ``CO:size``; D-H3).
    peek = HiddenField(validators=[Length(max=16, message="Choose a ranking to peek at.")])

    @staticmethod
    def integer(field: HiddenField | StringField) -> int | None:
        """A ply, an action or a number of battles; None unless ASCII digits (``guards.whole_number``)."""
        return whole_number(field.data, hi=MAX_MOVE_NUMBER)

    def move(self) -> TableMove:
        """The move the form sent (validate first)."""
        return TableMove(
            ply=self.integer(self.ply),
            action=self.integer(self.action),
            battles=self.integer(self.battles),
            number=self.number.data or "",
            call=self.call.data or "",
        )

    def peeked(self) -> tuple[int | None, str]:
        """The ply and the fact key of a peek (validate first).

        Raises:
            Refused: no ranking was named.
        """
        key = (self.peek.data or "").strip()
        if not key:
            raise Refused("Choose a ranking to peek at.")
        return self.integer(self.ply), key


class NewComboForm(FlaskForm):
    """Start a Combo 1 match against a computer team."""

    format = RadioField(
        "Which round?",
        choices=[
            SelectChoice(
                "morning",
                "Morning round: 20 minutes, the four games in order (Border-Up, State IQ, Dashing States, Play the Ranks), again while time is left",
            ),
            SelectChoice(
                "afternoon",
                "Afternoon round: 12 minutes, two games picked after a statehood draw, taking turns while time is left",
            ),
        ],
        default="morning",
        validators=[DataRequired(message="Choose a morning or an afternoon round.")],
    )
    level = RadioField(
        "How good is the computer team?",
        choices=[
            SelectChoice("easy", "Easy: slow in the races, forgetful in the guessing"),
            SelectChoice("medium", "Medium"),
            SelectChoice("hard", "Hard: fast, and it knows every state"),
        ],
        default="medium",
        validators=[DataRequired(message="Choose a level.")],
    )
    submit = SubmitField("Start the match")


class ComboStepForm(FlaskForm):
    """Deal the next game of a match, or stop it: names the game it is for, so a replay changes nothing."""

    position = HiddenField()

    def position_number(self) -> int | None:
        """The number of games the page was shown with; None unless ASCII digits (``guards.whole_number``)."""
        return whole_number(self.position.data)


class ComboPickForm(FlaskForm):
    """The afternoon round's pick of a game."""

    game = RadioField(
        "Which game do you pick?",
        choices=[
            SelectChoice("border-up", "Border-Up"),
            SelectChoice("state-iq", "State IQ"),
            SelectChoice("dashing-states", "Dashing States"),
            SelectChoice("play-the-ranks", "Play the Ranks"),
        ],
        validators=[DataRequired(message="Pick a game.")],
    )
    submit = SubmitField("Pick this game")

    def offer(self, taken: list[ComboGame]) -> None:
        """Offer every game but those already picked (the computer's pick, when it picked first)."""
        self.game.choices = [(g.value, g.label) for g in ComboGame if g not in taken]

    def pick(self) -> ComboGame:
        """The game picked (call after ``validate``: the choice is then one offered)."""
        return ComboGame(self.game.data)
