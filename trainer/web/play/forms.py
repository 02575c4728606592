"""Forms of the quiz modes."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, RadioField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length

from trainer.quiz.state_iq import Level

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
    answer = StringField("State", validators=[Length(max=60, message="That is too long for a state's name.")])
    submit = SubmitField("Go")

    def turn_number(self) -> int | None:
        raw = (self.turn.data or "").strip()
        return int(raw) if raw.isdigit() else None


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
