"""The form that sets, changes or clears an assignment's test day (P-A5)."""

from __future__ import annotations

import datetime as dt

from flask_wtf import FlaskForm
from wtforms import DateField, SelectField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Optional

from trainer.aim import DEFAULT_TEST_TARGET, TEST_TARGETS
from trainer.assignments import test_day_problem


def target_on_test_day_field(description: str = "") -> SelectField:
    """The "Remember on test day" choice (P-A5): 80, 85, 90 or 95%, 90 unless chosen."""
    return SelectField(
        "Remember on test day",
        choices=[SelectChoice(str(round(t * 100)), f"{round(t * 100)}%") for t in TEST_TARGETS],
        default=str(round(DEFAULT_TEST_TARGET * 100)),
        validate_choice=True,
        description=description,
    )


class TestDayForm(FlaskForm):
    """A test day for an existing assignment: empty clears it."""

    __test__ = False  # not a pytest test class, whatever its name

    test_on = DateField(
        "Test day",
        validators=[Optional()],
        description="Leave it empty for no test day. Each student's reviews are timed so the facts are remembered that day.",
    )
    test_target = target_on_test_day_field()

    def __init__(self, starts_on: dt.date, today: dt.date, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.starts_on = starts_on
        self.today = today

    def validate(self, extra_validators: object = None) -> bool:
        ok = super().validate(extra_validators)
        if self.test_on.data is not None and not self.test_on.errors:
            problem = test_day_problem(self.test_on.data, self.starts_on, self.today)
            if problem:
                self.test_on.errors = [*self.test_on.errors, problem]
                ok = False
        return ok

    def percent(self) -> float:
        return int(self.test_target.data or round(DEFAULT_TEST_TARGET * 100)) / 100
