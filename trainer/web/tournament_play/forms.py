"""The forms of a match scored in the app. Each names the state it was sent from (the game number,
the picks so far...), so a form sent twice or from an old page changes nothing."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired

from trainer.games.combo import ComboGame

#: What the result buttons send: team A won, team B won, or a tie.
WINNERS = ("a", "b", "tie")


class MatchStepForm(FlaskForm):
    """A button of the match page (draw the cards, finish the match, take back the last game) with
    the state it was pressed in (``expected``)."""

    expected = HiddenField()


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
        return (self.number.data, self.game.data) == (str(number), game.value) and self.winner.data in WINNERS
