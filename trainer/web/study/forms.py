"""Forms of the study pages: starting a round, answering, and study settings."""

from __future__ import annotations

import time
from dataclasses import dataclass

from flask import current_app
from flask_wtf import FlaskForm
from itsdangerous import BadData, URLSafeSerializer
from wtforms import (
    BooleanField,
    DecimalField,
    HiddenField,
    IntegerField,
    SelectField,
    SelectMultipleField,
    StringField,
    SubmitField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, Optional, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

from trainer import daily, srs
from trainer.cards import Deck, Region, Zone
from trainer.facts import Facet
from trainer.review import MAX_DURATION_MS

from ..guards import FiniteNumber, whole_number
from ..memory import ANSWER_MAX
from ..zones import zone_choices

#: Keeps the "question served" stamps of the study pages apart from anything else the key signs.
SERVED_SALT = "study.question-served"


class CheckboxListField(SelectMultipleField):
    """A group of checkboxes (a multiple select is awkward on a phone)."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class StartForm(FlaskForm):
    """Start a review round, optionally focused on some facets and one part of the country."""

    facets = CheckboxListField(
        "Facts to study",
        choices=[SelectChoice(f.value, f.label) for f in Facet],
        description="Leave all unticked to study everything.",
        validate_choice=True,
    )
    area = SelectField(
        "Part of the country",
        choices=[SelectChoice("", "All 50 states")]
        + [
            SelectChoice(f"region:{r.slug}", f"The {r.value}", optgroup="Census regions")
            for r in Region
        ]
        + [
            SelectChoice(f"zone:{z.slug}", f"{z.value} time zone", optgroup="Time zones")
            for z in Zone
        ],
        default="",
    )

    def states(self, deck: Deck) -> set[str] | None:
        """The postal codes of the chosen part of the country, or None for all 50 states."""
        kind, _, slug = (self.area.data or "").partition(":")
        if kind == "region" and (region := Region.from_slug(slug)):
            return {s.postal for s in deck.in_region(region)}
        if kind == "zone" and (zone := Zone.from_slug(slug)):
            return {s.postal for s in deck.in_zone(zone)}
        return None

    #: "1" when the student asked to keep practising once nothing is due (P-M8).
    practice = HiddenField(
        "Keep practising",
        validators=[
            Optional(),
            AnyOf(["0", "1"], message="Something went wrong with that button. Press it again."),
        ],
    )
    submit = SubmitField("Start studying")

    def practising(self) -> bool:
        """True when the round is to be filled with the facts most at risk (P-M8)."""
        return self.practice.data == "1"


def _served_signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt=SERVED_SALT)


def served_stamp(round_token: str, index: int, *, now: float | None = None) -> str:
    """A signed note of when item ``index`` of a round was sent, for the page to post back.

    The time is the server's (``now``, seconds since the epoch, defaults to the clock): a student
    may post the stamp back late but cannot make it say a later time without the secret key.
    """
    served_at_ms = round(1000 * (time.time() if now is None else now))
    return _served_signer().dumps([round_token, index, served_at_ms])


def served_ms_ago(
    stamp: str | None, round_token: str, index: int, *, now: float | None = None
) -> int | None:
    """Milliseconds since ``stamp`` was made for this very item; None when it is missing, forged,
    or made for another item or round."""
    if not stamp:
        return None
    try:
        payload = _served_signer().loads(stamp)
    except BadData:
        return None
    if not (
        isinstance(payload, list) and len(payload) == 3 and payload[:2] == [round_token, index]
    ):
        return None
    served_at_ms = payload[2]
    if not isinstance(served_at_ms, int) or isinstance(served_at_ms, bool):
        return None
    return round(1000 * (time.time() if now is None else now)) - served_at_ms


@dataclass(frozen=True)
class GivenAnswer:
    """An answer as the question's page sent it, read for :func:`~trainer.web.study.routes.answer_study_item`."""

    #: The typed text, the chosen option or the clicked spot; None for "I don't know".
    text: str | None
    #: How long the student took, as the page measured it (None unless plausible digits).
    page_ms: int | None
    #: Milliseconds since the server sent this very question (None: no valid stamp for it).
    served_ms: int | None


class AnswerForm(FlaskForm):
    """One answer. ``answer`` carries typed text, the chosen option or the clicked spot.

    ``elapsed_ms`` is the page's own measure of the time taken; ``served`` is the server's signed
    stamp of when it sent the question, which bounds it (:func:`trainer.review.bounded_duration`).
    """

    answer = StringField(
        "Your answer", validators=[Length(max=ANSWER_MAX, message="That answer is too long.")]
    )
    elapsed_ms = HiddenField()
    served = HiddenField()
    submit = SubmitField("Check")
    dont_know = SubmitField("I don't know")

    def page_ms(self) -> int | None:
        """How long the student took, as the page says it measured; None unless 1 to 9 ASCII digits
        within :data:`MAX_DURATION_MS`."""
        return whole_number(self.elapsed_ms.data, 1, MAX_DURATION_MS)

    def given(self, round_token: str, index: int) -> GivenAnswer:
        """The answer to item ``index`` of the round ``round_token`` (validate first): the text,
        or None when "I don't know" was pressed, and the page's and the server's times."""
        return GivenAnswer(
            text=None if self.dont_know.data else self.answer.data or "",
            page_ms=self.page_ms(),
            served_ms=served_ms_ago(self.served.data, round_token, index),
        )


#: What a daily amount may be, in words a student reads (P-D1).
AMOUNT_RANGES = " or ".join(
    f"{low} to {high} {unit.value}" for unit, (low, high) in daily.BOUNDS.items()
)
AMOUNT_MESSAGE = f"Type a whole number: {AMOUNT_RANGES}."
UNIT_MESSAGE = "Choose answers or minutes."
UNIT_CHOICES = [SelectChoice(unit.value, unit.value) for unit in daily.Unit]


class WholeNumberField(IntegerField):
    """A whole number typed in ASCII digits (``guards.whole_number``), else ``message``.

    WTForms' own ``IntegerField`` takes whatever ``int`` takes ("٣", "1_000") and says
    "Not a valid integer value" to a child; this one says what to type.
    """

    def __init__(self, label: str, message: str, **kwargs: object) -> None:
        super().__init__(label, **kwargs)
        self.message = message

    def process_formdata(self, valuelist: list[str]) -> None:
        if not valuelist or not (valuelist[0] or "").strip():
            self.data = None
            return
        self.data = whole_number(valuelist[0], 0, 10**6)
        if self.data is None:
            raise ValueError(self.message)


def amount_problem(amount: int | None, unit: str | None) -> str | None:
    """Why ``amount`` is not a daily amount in ``unit`` (P-D1), or None when it is one."""
    if unit not in set(daily.Unit) or amount is None:
        return None  # the unit's own check, or the amount's, says what is wrong
    low, high = daily.BOUNDS[daily.Unit(unit)]
    if not low <= amount <= high:
        return f"Type a number from {low} to {high} for {unit}."
    return None


class SettingsForm(FlaskForm):
    """A student's study settings."""

    desired_retention = DecimalField(
        "How much to remember (desired retention, %)",
        places=0,
        validators=[
            InputRequired(message="Type a number from 70 to 97."),
            FiniteNumber("Type a number from 70 to 97."),
            NumberRange(
                min=srs.MIN_RETENTION * 100,
                max=srs.MAX_RETENTION * 100,
                message="Type a number from 70 to 97.",
            ),
        ],
        description="90% is a good start. Higher means more reviews; lower means fewer but more forgetting.",
        render_kw={"inputmode": "numeric", "min": 70, "max": 97, "step": 1},
    )
    new_per_day = IntegerField(
        "New facts per day",
        validators=[
            InputRequired(message=f"Type a number from 0 to {srs.MAX_NEW_PER_DAY}."),
            NumberRange(
                min=0,
                max=srs.MAX_NEW_PER_DAY,
                message=f"Type a number from 0 to {srs.MAX_NEW_PER_DAY}.",
            ),
        ],
        description="How many facts you have never seen may come up each day.",
        render_kw={"inputmode": "numeric", "min": 0, "max": srs.MAX_NEW_PER_DAY},
    )
    time_zone = SelectField(
        "Time zone", choices=zone_choices, validators=[Optional()], validate_choice=True
    )
    multiple_choice = BooleanField("Offer multiple choice for facts I am still learning")
    daily_amount = WholeNumberField(
        "How much to study each day",
        AMOUNT_MESSAGE,
        validators=[InputRequired(message=AMOUNT_MESSAGE)],
        description=f"{AMOUNT_RANGES[0].upper()}{AMOUNT_RANGES[1:]}. 40 answers is about {40 * daily.SECONDS_PER_ANSWER // 60} minutes. You may always study more.",
        render_kw={"inputmode": "numeric", "min": 5, "max": 200},
    )
    daily_unit = SelectField(
        "Counted in",
        choices=UNIT_CHOICES,
        validators=[
            InputRequired(message=UNIT_MESSAGE),
            AnyOf([u.value for u in daily.Unit], message=UNIT_MESSAGE),
        ],
        validate_choice=False,
    )
    submit = SubmitField("Save settings")

    def validate_daily_amount(self, field: WholeNumberField) -> None:
        if problem := amount_problem(field.data, self.daily_unit.data):
            raise ValidationError(problem)

    def validate_desired_retention(self, field: DecimalField) -> None:
        if field.data is not None and field.data != field.data.to_integral_value():
            raise ValidationError("Type a whole number from 70 to 97.")
