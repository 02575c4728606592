"""Forms of the live tables."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, RadioField, SelectField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, ValidationError

from trainer import live

from ..guards import whole_number
from ..play.forms import GAME_CHOICES

#: The most seats any card game has.
MOST_SEATS = 7
#: A table for a Border-Up race between two students (L-R1): not a card game of the registry.
BORDER_UP = "border-up"
#: A table for a Dashing States race between two students (L-D1).
DASHING_STATES = "dashing-states"
#: A table for a State IQ duel between two students (L-Q1).
STATE_IQ = "state-iq"
#: What a table may be opened for: the card games, and the races.
TABLE_CHOICES = [
    *GAME_CHOICES,
    SelectChoice(
        BORDER_UP,
        "Border-Up race (2 players): each of you gets your own 18 cards; "
        "the first right call of two groups wins",
    ),
    SelectChoice(
        DASHING_STATES,
        "Dashing States race (2 players): each of you gets your own five Map cards; "
        "the first right call of four states in order, with their capitals, wins",
    ),
    SelectChoice(
        STATE_IQ,
        "State IQ duel (2 players): each of you holds a card; guess your classmate's state "
        "from your clues, in fewer guesses than they need for yours",
    ),
]


class NewTableForm(FlaskForm):
    """Open a table for classmates."""

    game = RadioField(
        "Which game?",
        choices=TABLE_CHOICES,
        default=GAME_CHOICES[0].value,
        validators=[DataRequired(message="Choose a game.")],
    )
    players = SelectField(
        "Seats, counting you",
        choices=[SelectChoice(str(n), str(n)) for n in range(2, MOST_SEATS + 1)],
        default="3",
        description="Classmates take the seats; the computer plays any seat left free. "
        "Play the Ranks, GeoClash Down Back and Geography War are for 2.",
    )
    team_size = RadioField(
        "Teams",
        choices=[
            SelectChoice("1", "Everyone for themselves"),
            SelectChoice("2", "Teams of 2"),
            SelectChoice("3", "Teams of 3"),
        ],
        default="1",
        description="Partners sit apart: seats 1 and 3 are a team of 2 at a table of 4.",
    )
    level = RadioField(
        "How good is the computer, for the seats it plays?",
        choices=[
            SelectChoice("easy", "Easy: it plays any card"),
            SelectChoice("medium", "Medium: it plays sensibly"),
            SelectChoice("hard", "Hard: it thinks ahead"),
        ],
        default="medium",
        validators=[DataRequired(message="Choose a level.")],
    )
    turn_seconds = RadioField(
        "A clock for each move?",
        choices=[
            SelectChoice("", "No clock: wait for everyone"),
            *(
                SelectChoice(str(s), f"{s} seconds, then the computer plays for whoever is slow")
                for s in live.TURN_TIMERS
            ),
        ],
        default="",
        validate_choice=True,
        description="Whatever you choose, a classmate who leaves the table is played for by the "
        "computer after a minute, and takes their seat back when they return.",
    )
    submit = SubmitField("Open the table")

    def timer(self) -> int | None:
        """The turn timer chosen, in seconds (validate first); None: no clock."""
        return whole_number(self.turn_seconds.data) or None

    def seats(self) -> tuple[int, int]:
        """The seats and the players per team (validate first)."""
        return (
            whole_number(self.players.data, lo=2, hi=MOST_SEATS) or 2,
            whole_number(self.team_size.data, lo=1, hi=3) or 1,
        )


class JoinTableForm(FlaskForm):
    """Join a classmate's table with its code."""

    code = StringField(
        "The table's code",
        validators=[
            DataRequired(message="Type the code your classmate's table shows."),
            Length(max=20, message="A table's code has 6 letters and digits."),
        ],
    )
    submit = SubmitField("Join")

    def validate_code(self, field: StringField) -> None:
        if len(live.normal_code(field.data or "")) != live.TABLE_CODE_LENGTH:
            raise ValidationError("A table's code has 6 letters and digits.")


class SeatForm(FlaskForm):
    """A change in the lobby, made on the table's ``version`` (a seat to sit at, or to give to
    the computer), or starting the game."""

    version = HiddenField()
    seat = HiddenField()
    computer = BooleanField()
    #: A friendly message's number (``trainer.live.CHEERS``).
    message = HiddenField()
    #: The classmate invited (a user id).
    student = HiddenField()

    def student_number(self) -> int | None:
        return whole_number(self.student.data)

    def version_number(self) -> int | None:
        return whole_number(self.version.data, hi=10**9)

    def message_number(self) -> int | None:
        return whole_number(self.message.data, hi=len(live.CHEERS))

    def seat_number(self) -> int:
        """The seat named, or -1 (no such seat) when it is not a number."""
        number = whole_number(self.seat.data, hi=MOST_SEATS)
        return -1 if number is None else number
