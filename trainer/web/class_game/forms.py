"""Forms of GeoPlunge Live: the teacher's new game, the controls, a student's join and answer."""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, ValidationError

from trainer import class_game as cg
from trainer import live
from trainer.assignments import Scope
from trainer.cards import Deck
from trainer.facts import Facet

from ..study.forms import CheckboxListField
from ..teach.forms import FACETS_MESSAGE, parse_states, scope_fields

#: What a game covers: what the class is about to forget (C-W1), or a part of the deck.
FORGET, SCOPE = "forget", "scope"
#: The timer's choices, in seconds ("" : no timer, the teacher reveals).
TIMER_CHOICES = [SelectChoice("", "No timer: I reveal each answer")] + [
    SelectChoice(str(s), f"{s} seconds") for s in (10, 15, 20, 30, 45, 60, 90)
]
#: The answers a question takes at most, as text (a capital's name, three postal codes).
ANSWER_MAX = 64
#: The controls of the projector (:func:`trainer.class_game.advance`'s actions).
ACTIONS = ("start", "clue", "reveal", "standings", "next", "skip", "pause", "resume", "end")


class NewGameForm(FlaskForm):
    """A new GeoPlunge Live game for a class: what it covers, its questions, its timer and its
    standings. ``validate`` leaves the parsed scope in ``scope`` and the settings in ``settings()``."""

    covers = RadioField(
        "What the game covers",
        choices=[
            SelectChoice(
                FORGET,
                "What my class is about to forget: the facts with the lowest predicted recall today",
            ),
            SelectChoice(SCOPE, "A part of the deck, chosen below"),
        ],
        default=FORGET,
        validators=[InputRequired(message="Choose what the game covers.")],
    )
    facets, area, states = scope_fields(
        "Only for a part of the deck. None ticked: every fact.",
        "State names or postal codes, separated by commas. They are added to the part of the country.",
    )
    kinds = CheckboxListField(
        "Kinds of question",
        choices=[SelectChoice(k.value, cg.KIND_TITLES[k]) for k in cg.Kind],
        validate_choice=True,
        default=[k.value for k in cg.Kind],
        description="The game takes them in turn.",
    )
    length = IntegerField(
        "Questions",
        default=10,
        validators=[
            InputRequired(message="Type how many questions."),
            NumberRange(
                min=1, max=cg.MAX_QUESTIONS, message=f"From 1 to {cg.MAX_QUESTIONS} questions."
            ),
        ],
        render_kw={"inputmode": "numeric", "min": 1, "max": cg.MAX_QUESTIONS},
    )
    seconds = SelectField("Timer", choices=TIMER_CHOICES, default="20", validate_choice=True)
    speed_breaks_ties = BooleanField(
        "Speed breaks ties (less time on right answers ranks first)", default=True
    )
    standings = RadioField(
        "Standings between questions",
        choices=[
            SelectChoice(
                cg.Standings.TOP_FIVE.value, "The top five only (nobody's name beside a low score)"
            ),
            SelectChoice(cg.Standings.TEAMS.value, "Every team (with teams of 2 or more)"),
            SelectChoice(cg.Standings.NONE.value, "None: straight on to the next question"),
        ],
        default=cg.Standings.TOP_FIVE.value,
        validators=[InputRequired(message="Choose the standings.")],
    )
    team_size = SelectField(
        "Teams",
        choices=[SelectChoice("1", "Everyone for themselves")]
        + [SelectChoice(str(n), f"Teams of {n}") for n in (2, 3, 4, 5)],
        default="1",
        validate_choice=True,
    )
    extra_time = CheckboxListField(
        "Students with extra time",
        coerce=int,
        validate_choice=True,
        description="They get half as long again on each timed question.",
    )
    submit = SubmitField("Make the game")

    def __init__(
        self, deck: Deck, students: list[tuple[int, str]], *args: Any, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.deck = deck
        self.extra_time.choices = students
        self.scope = Scope()

    def validate(self, extra_validators: Any = None) -> bool:
        ok = super().validate(extra_validators)
        if not self.kinds.data:
            self.kinds.errors = [*self.kinds.errors, "Tick at least one kind of question."]
            ok = False
        if self.standings.data == cg.Standings.TEAMS.value and self.team_size.data == "1":
            self.standings.errors = [
                *self.standings.errors,
                "Team standings need teams: choose teams of 2 or more, or the top five.",
            ]
            ok = False
        if self.covers.data == SCOPE:
            ok = self._check_scope() and ok
        return ok

    def _check_scope(self) -> bool:
        postals, unknown = parse_states(self.states.data or "", self.deck)
        if unknown:
            shown = ", ".join(f"“{name}”" for name in unknown[:5])
            self.states.errors = [*self.states.errors, f"These are not US states: {shown}."]
            return False
        known = {facet.value for facet in Facet}
        if any(value not in known for value in self.facets.data or []):
            self.facets.errors = [FACETS_MESSAGE]
            return False
        facets = frozenset(Facet(value) for value in self.facets.data or [])
        self.scope = Scope(facets, self.area.data or "", frozenset(postals))
        return True

    def settings(self) -> cg.Settings:
        seconds = int(self.seconds.data) if self.seconds.data else None
        return cg.Settings(
            kinds=tuple(cg.Kind(k) for k in self.kinds.data or []),
            length=int(self.length.data or 1),
            seconds=seconds,
            speed_breaks_ties=bool(self.speed_breaks_ties.data),
            standings=cg.Standings(self.standings.data),
            team_size=int(self.team_size.data or 1),
        )


class ControlForm(FlaskForm):
    """One of the projector's buttons: the action and the version the projector showed (C-W3)."""

    action = HiddenField(validators=[DataRequired()])
    version = HiddenField(validators=[DataRequired()])

    def validate_action(self, field: HiddenField) -> None:
        if field.data not in ACTIONS:
            raise ValidationError("That is not one of the game's controls.")


class JoinGameForm(FlaskForm):
    """A student types the code their teacher's projector shows."""

    code = StringField(
        "The game's code",
        validators=[
            DataRequired(message="Type the code on your teacher's screen."),
            Length(max=20, message="A game's code has six letters and numbers."),
        ],
        render_kw={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"},
    )
    submit = SubmitField("Join the game")

    def normal_code(self) -> str:
        return live.normal_code(self.code.data or "")[:8]


class AnswerForm(FlaskForm):
    """A student's answer to the question open now (``question``: its number, as the page showed it)."""

    question = HiddenField(validators=[DataRequired()])
    answer = StringField(validators=[Length(max=ANSWER_MAX)])
    #: Border-Up: the cards ticked (three of the six).
    cards = CheckboxListField(validate_choice=False)

    def given(self) -> str:
        """The answer as the core reads it: three ticked cards joined by "+", else the text."""
        if self.cards.data:
            return "+".join(str(c).strip().upper() for c in self.cards.data)
        return (self.answer.data or "").strip()
