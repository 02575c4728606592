"""The forms of a match scored in the app. Each names the state it was sent from (the game number,
the picks so far...), so a form sent twice or from an old page changes nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired

from trainer.games.combo import ComboGame

if TYPE_CHECKING:
    from .scoring import MatchPlay

#: What the result buttons send: team A won, team B won, or a tie.
WINNERS = ("a", "b", "tie")


#: What a confirmation form sends: the other team confirms or disputes a game; the teacher
#: confirms it, or corrects it to one of WINNERS (P-K6).
CONFIRM, DISPUTE = "confirm", "dispute"
#: The other team's (or the teacher's) answer to "Finish the match" (P-K6).
DECLINE = "decline"
#: ``back`` of a form sent from the teacher's round page: the answer returns there.
BACK_TO_ROUND = "round"


class MatchStepForm(FlaskForm):
    """A button of the match page (draw the cards, finish the match, take back the last game) with
    the state it was pressed in (``expected``)."""

    expected = HiddenField()
    back = HiddenField()


class MatchAnswerForm(FlaskForm):
    """An answer to what the other team entered (P-K6): ``expected`` names what was shown (the
    game's entry, :attr:`~.scoring.Recorded.token`, or the number of games when the finish was asked), so an answer sent twice, or
    from a page older than a take-back, changes nothing. ``answer`` comes from the button pressed."""

    expected = HiddenField()
    answer = StringField()
    back = HiddenField()


class MatchPickForm(FlaskForm):
    """An afternoon pick (K2): the draw winner's team picks first, then the other team a different game."""

    expected = HiddenField()
    game = RadioField(
        "Which game does the team pick?",
        choices=[SelectChoice(game.value, game.label) for game in ComboGame],
        validators=[InputRequired(message="Pick a game.")],
    )
    submit = SubmitField("Pick this game")


class MatchGameForm(FlaskForm):
    """The result of the game due: which game (its number and slug, as the page showed it) and who
    won it. ``winner`` comes from the button pressed: "a", "b" or "tie"."""

    number = HiddenField()
    game = HiddenField()
    winner = StringField()

    def names(self, number: int, game: ComboGame) -> bool:
        """Whether the form was sent for game ``number``, ``game``, with a result."""
        return (self.number.data, self.game.data) == (
            str(number),
            game.value,
        ) and self.winner.data in WINNERS


def confirm_form(play: MatchPlay, back: str = "") -> MatchAnswerForm | None:
    """The form that answers the match's pending game (P-K6), naming that entry of it; None when
    no game waits. ``back``: :data:`BACK_TO_ROUND` on the teacher's round page."""
    if play.pending is None:
        return None
    form = MatchAnswerForm(prefix="confirm", formdata=None)
    form.expected.data, form.back.data = play.pending.token, back
    return form


def answer_form(play: MatchPlay, back: str = "") -> MatchAnswerForm | None:
    """The form that answers a team's "Finish the match" (P-K6), naming the number of games it was
    asked on; None when no finish waits."""
    if not play.finish_waits:
        return None
    form = MatchAnswerForm(prefix="answer", formdata=None)
    form.expected.data, form.back.data = str(len(play.games)), back
    return form
