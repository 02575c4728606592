"""Forms of the study pages: starting a round, answering, and study settings."""

from __future__ import annotations

import time

from flask import current_app
from flask_wtf import FlaskForm
from itsdangerous import BadData, URLSafeSerializer
from wtforms import BooleanField, DecimalField, HiddenField, IntegerField, SelectField, SelectMultipleField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, Optional, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

from trainer import srs
from trainer.cards import Deck, Region, Zone
from trainer.facts import Facet
from trainer.review import MAX_DURATION_MS

from ..guards import FiniteNumber, whole_number
from ..memory import ANSWER_MAX, known_time_zones

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
        + [SelectChoice(f"region:{r.slug}", f"The {r.value}", optgroup="Census regions") for r in Region]
        + [SelectChoice(f"zone:{z.slug}", f"{z.value} time zone", optgroup="Time zones") for z in Zone],
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
    practice = HiddenField("Keep practising", validators=[Optional(), AnyOf(["0", "1"], message="Something went wrong with that button. Press it again.")])
    submit = SubmitField("Start studying")

    def practising(self) -> bool:
        """True when the round is to be filled with the facts most at risk (P-M8)."""
        return self.practice.data == "1"


def _served_signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key, salt=SERVED_SALT)


def served_stamp(round_token: str, index: int, *, now: float | None = None) -> str:
    """A signed note of when item ``index`` of a round was sent, for the page to post back.

    The time is the server's (``now``, seconds since the epoch, defaults to the clock): a student
    may post the stamp back late but cannot make it say a later time without the secret key.
    """
    served_at_ms = round(1000 * (time.time() if now is None else now))
    return _served_signer().dumps([round_token, index, served_at_ms])


def served_ms_ago(stamp: str | None, round_token: str, index: int, *, now: float | None = None) -> int | None:
    """Milliseconds since ``stamp`` was made for this very item; None when it is missing, forged,
    or made for another item or round."""
    if not stamp:
        return None
    try:
        payload = _served_signer().loads(stamp)
    except BadData:
        return None
    if not (isinstance(payload, list) and len(payload) == 3 and payload[:2] == [round_token, index]):
        return None
    served_at_ms = payload[2]
    if not isinstance(served_at_ms, int) or isinstance(served_at_ms, bool):
        return None
    return round(1000 * (time.time() if now is None else now)) - served_at_ms


class AnswerForm(FlaskForm):
    """One answer. ``answer`` carries typed text, the chosen option or the clicked spot.

    ``elapsed_ms`` is the page's own measure of the time taken; ``served`` is the server's signed
    stamp of when it sent the question, which bounds it (:func:`trainer.review.bounded_duration`).
    """

    answer = StringField("Your answer", validators=[Length(max=ANSWER_MAX, message="That answer is too long.")])
    elapsed_ms = HiddenField()
    served = HiddenField()
    submit = SubmitField("Check")
    dont_know = SubmitField("I don't know")

    def page_ms(self) -> int | None:
        """How long the student took, as the page says it measured; None unless 1 to 9 ASCII digits
        within :data:`MAX_DURATION_MS`."""
        return whole_number(self.elapsed_ms.data, 1, MAX_DURATION_MS)


def _zone_choices() -> list[SelectChoice]:
    us = [
        "America/New_York",
        "America/Chicago",
        "America/Denver",
        "America/Phoenix",
        "America/Los_Angeles",
        "America/Anchorage",
        "Pacific/Honolulu",
    ]
    rest = sorted(known_time_zones() - set(us))
    return [SelectChoice("", "My browser’s time zone")] + [SelectChoice(z, z.replace("_", " ")) for z in us + rest]


class SettingsForm(FlaskForm):
    """A student's study settings."""

    desired_retention = DecimalField(
        "How much to remember (desired retention, %)",
        places=0,
        validators=[
            InputRequired(message="Type a number from 70 to 97."),
            FiniteNumber("Type a number from 70 to 97."),
            NumberRange(min=srs.MIN_RETENTION * 100, max=srs.MAX_RETENTION * 100, message="Type a number from 70 to 97."),
        ],
        description="90% is a good start. Higher means more reviews; lower means fewer but more forgetting.",
        render_kw={"inputmode": "numeric", "min": 70, "max": 97, "step": 1},
    )
    new_per_day = IntegerField(
        "New facts per day",
        validators=[
            InputRequired(message=f"Type a number from 0 to {srs.MAX_NEW_PER_DAY}."),
            NumberRange(min=0, max=srs.MAX_NEW_PER_DAY, message=f"Type a number from 0 to {srs.MAX_NEW_PER_DAY}."),
        ],
        description="How many facts you have never seen may come up each day.",
        render_kw={"inputmode": "numeric", "min": 0, "max": srs.MAX_NEW_PER_DAY},
    )
    time_zone = SelectField("Time zone", choices=_zone_choices, validators=[Optional()], validate_choice=True)
    multiple_choice = BooleanField("Offer multiple choice for facts I am still learning")
    submit = SubmitField("Save settings")

    def validate_desired_retention(self, field: DecimalField) -> None:
        if field.data is not None and field.data != field.data.to_integral_value():
            raise ValidationError("Type a whole number from 70 to 97.")
