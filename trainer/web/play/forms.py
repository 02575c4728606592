"""Forms of the quiz modes."""

from __future__ import annotations

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

from trainer.games import REGISTRY
from trainer.quiz.state_iq import Level

from ..guards import whole_number

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

    def turn_number(self) -> int | None:
        return whole_number(self.turn.data)


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


class DashingForm(FlaskForm):
    """The call: its fields (a place, a name and a capital per card) are read by the view."""


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


class BorderUpForm(FlaskForm):
    """A Border-Up action (turn the cards over, a hint, the call): its card fields are read by the view."""


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


class CardGameMoveForm(FlaskForm):
    """One move at the table. ``ply`` names the version of the game the move was made on."""

    ply = HiddenField()
    action = HiddenField()
    number = StringField(
        "Its ranking", validators=[Length(max=20, message="Type a number from 1 to 50.")]
    )
    call = HiddenField()
    battles = HiddenField()

    @staticmethod
    def integer(field: HiddenField | StringField) -> int | None:
        """A ply, an action or a number of battles; None unless ASCII digits (``guards.whole_number``)."""
        return whole_number(field.data, hi=MAX_MOVE_NUMBER)


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
