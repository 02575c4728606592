"""The forms of a match scored in the app. Each names the state it was sent from (the game number,
the picks so far...), so a form sent twice or from an old page changes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired

from trainer.games.combo import ComboGame, Side

from ..guards import Refused, whole_number

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

#: What a pick form's game says when it is missing (the service refuses a pick it could not read).
PICK_A_GAME = "Pick a game."


def _winner(sent: str | None) -> Side | None:
    """The side a result button names ("a", "b"); None for "tie"."""
    return None if sent == "tie" else Side(sent)


class Verdict(Enum):
    """The answer to a game one team recorded (P-K6): the other team confirms or disputes it, the
    teacher confirms it or corrects it to a result (team A won, team B won, a tie)."""

    CONFIRM = "confirm"
    DISPUTE = "dispute"
    A = "a"
    B = "b"
    TIE = "tie"

    @property
    def corrects(self) -> bool:
        """A result the teacher sets (a correction, or the same result again)."""
        return self.value in WINNERS

    @property
    def winner(self) -> Side | None:
        """The side the corrected result names (None: a tie); only for :attr:`corrects`."""
        return _winner(self.value)


@dataclass(frozen=True)
class GameEntry:
    """The result of a game as the form named it: its number, which game, and who won (None: a tie)."""

    number: int
    game: ComboGame
    winner: Side | None


@dataclass(frozen=True)
class GameAnswer:
    """An answer to the match's pending game: the entry it was shown (its token) and the verdict."""

    expected: str | None
    verdict: Verdict


class MatchStepForm(FlaskForm):
    """A button of the match page (draw the cards, finish the match, take back the last game) with
    the state it was pressed in (``expected``)."""

    expected = HiddenField()
    back = HiddenField()

    def expected_number(self) -> int | None:
        """The number the button was pressed with (a game's number, a count of games), or None
        when it names none."""
        return whole_number(self.expected.data)


class MatchAnswerForm(FlaskForm):
    """An answer to what the other team entered (P-K6): ``expected`` names what was shown (the
    game's entry, :attr:`~.scoring.Recorded.token`, or the number of games when the finish was asked), so an answer sent twice, or
    from a page older than a take-back, changes nothing. ``answer`` comes from the button pressed."""

    expected = HiddenField()
    answer = StringField()
    back = HiddenField()

    def game_answer(self) -> GameAnswer:
        """The answer to the pending game.

        Raises:
            Refused: no button of the confirmation form sent it.
        """
        try:
            verdict = Verdict(self.answer.data)
        except ValueError:
            raise Refused(
                "Press one of the buttons: confirm the result, or dispute it. Nothing was changed."
            ) from None
        return GameAnswer(self.expected.data, verdict)

    def finish_answer(self) -> bool:
        """Whether the answer to a team's "Finish the match" is yes (False: not yet).

        Raises:
            Refused: no button of the answer form sent it.
        """
        if self.answer.data not in (CONFIRM, DECLINE):
            raise Refused(
                "Press one of the buttons: finish the match, or not yet. Nothing was changed."
            )
        return self.answer.data == CONFIRM

    def expected_number(self) -> int | None:
        """The number of games the finish was answered on, or None when it names none."""
        return whole_number(self.expected.data)


class MatchPickForm(FlaskForm):
    """An afternoon pick (K2): the draw winner's team picks first, then the other team a different game."""

    expected = HiddenField()
    game = RadioField(
        "Which game does the team pick?",
        choices=[SelectChoice(game.value, game.label) for game in ComboGame],
        validators=[InputRequired(message="Pick a game.")],
    )
    submit = SubmitField("Pick this game")

    def expected_number(self) -> int | None:
        """The number of games already picked when the page was shown, or None."""
        return whole_number(self.expected.data)

    def pick(self) -> ComboGame | None:
        """The game picked, or None with the form's errors (none chosen, or not a game)."""
        return ComboGame(self.game.data) if self.validate() else None


class MatchGameForm(FlaskForm):
    """The result of the game due: which game (its number and slug, as the page showed it) and who
    won it. ``winner`` comes from the button pressed: "a", "b" or "tie"."""

    number = HiddenField()
    game = HiddenField()
    winner = StringField()

    def entry(self) -> GameEntry | None:
        """The game and result the form names, or None when it names no game or no result (an
        odd form: the service takes it for a page out of date)."""
        number = whole_number(self.number.data)
        if number is None or self.winner.data not in WINNERS:
            return None
        try:
            game = ComboGame(self.game.data)
        except ValueError:
            return None
        return GameEntry(number, game, _winner(self.winner.data))


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
