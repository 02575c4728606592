"""Forms of the teacher pages (classes, settings, student accounts) and of joining a class."""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask_wtf import FlaskForm
from sqlalchemy import select
from wtforms import (
    DateField,
    DecimalField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import (
    AnyOf,
    DataRequired,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    ValidationError,
)

from trainer import daily, srs
from trainer.aim import DEFAULT_TEST_TARGET
from trainer.assignments import (
    ACTIVITIES,
    DEFAULT_TARGET,
    MAX_REVIEWS,
    MAX_ROUNDS,
    MAX_TARGET,
    MIN_TARGET,
    Activity,
    Amount,
    Scope,
    default_title,
    scope_problems,
    test_day_problem,
)
from trainer.cards import Deck
from trainer.facts import Facet
from trainer.facts.answers import read_state

from ..assign.forms import target_on_test_day_field
from ..extensions import db
from ..guards import FiniteNumber, whole_number
from ..models import (
    ASSIGNMENT_TITLE_MAX,
    CLASS_NAME_MAX,
    DISPLAY_NAME_MAX,
    JOIN_CODE_LENGTH,
    SchoolClass,
)
from ..study.forms import (
    AMOUNT_MESSAGE,
    AMOUNT_RANGES,
    UNIT_CHOICES,
    UNIT_MESSAGE,
    CheckboxListField,
    StartForm,
    WholeNumberField,
    amount_problem,
)
from ..text import TypedName
from .accounts import MAX_NAMES, NameListError, StudentName, normalise_code, parse_names

_AREA_CHOICES = StartForm.area.kwargs["choices"]


def class_name_key(name: str) -> str:
    """A class name with case and spacing ignored: "Room 12" and "room  12" are one name."""
    return " ".join(name.split()).casefold()


class ClassNameMixin:
    """A class name: required, not too long, not the name of another of the teacher's classes."""

    #: The teacher whose classes the name must differ from, and the class being renamed (if any).
    teacher_id: int
    class_id: int | None = None

    def validate_name(self, field: StringField) -> None:
        name = (
            field.data or ""
        )  # already cleaned by TypedName (P-H12), which stops here if it refuses it
        rows = db.session.execute(
            select(SchoolClass.id, SchoolClass.name).where(
                SchoolClass.teacher_id == self.teacher_id
            )
        ).all()
        if any(
            class_name_key(row.name) == class_name_key(name) and row.id != self.class_id
            for row in rows
        ):
            raise ValidationError(f"You already have a class called “{name}”. Choose another name.")


def _name_field() -> StringField:
    return StringField(
        "Class name",
        validators=[
            DataRequired(message="Give the class a name."),
            TypedName(),
            Length(
                max=CLASS_NAME_MAX, message=f"A class name has at most {CLASS_NAME_MAX} characters."
            ),
        ],
        description="For example “Period 3 Geography”. Your students see it.",
        render_kw={"maxlength": CLASS_NAME_MAX, "autocomplete": "off"},
    )


class NewClassForm(ClassNameMixin, FlaskForm):
    """A new class: just its name."""

    name = _name_field()
    submit = SubmitField("Create class")

    def __init__(self, teacher_id: int, **kwargs: object):
        super().__init__(**kwargs)
        self.teacher_id = teacher_id


RETENTION_MESSAGE = "Type a whole number from 70 to 97, or leave it empty."
NEW_MESSAGE = f"Type a number from 0 to {srs.MAX_NEW_PER_DAY}, or leave it empty."


class ClassSettingsForm(ClassNameMixin, FlaskForm):
    """A class's name and the study settings it sets for its students (empty: their own)."""

    name = _name_field()
    desired_retention = DecimalField(
        "How much to remember (desired retention, %)",
        places=0,
        validators=[
            Optional(),
            FiniteNumber(RETENTION_MESSAGE),
            NumberRange(
                min=srs.MIN_RETENTION * 100, max=srs.MAX_RETENTION * 100, message=RETENTION_MESSAGE
            ),
        ],
        description="From 70 to 97. Empty: each student’s own setting (90% unless they changed it).",
        render_kw={"inputmode": "numeric", "min": 70, "max": 97, "step": 1},
    )
    new_per_day = IntegerField(
        "New facts per day",
        validators=[Optional(), NumberRange(min=0, max=srs.MAX_NEW_PER_DAY, message=NEW_MESSAGE)],
        description=f"From 0 to {srs.MAX_NEW_PER_DAY}. Empty: each student’s own setting (20 unless they changed it).",
        render_kw={"inputmode": "numeric", "min": 0, "max": srs.MAX_NEW_PER_DAY},
    )
    daily_amount = WholeNumberField(
        "How much to study each day",
        AMOUNT_MESSAGE[:-1] + ", or leave it empty.",
        validators=[Optional()],
        description=f"{AMOUNT_RANGES[0].upper()}{AMOUNT_RANGES[1:]}. Empty: each student’s own (40 answers unless they changed it).",
        render_kw={"inputmode": "numeric", "min": 5, "max": 200},
    )
    daily_unit = SelectField(
        "Counted in",
        choices=UNIT_CHOICES,
        default=daily.Unit.ANSWERS.value,
        validators=[Optional(), AnyOf([u.value for u in daily.Unit], message=UNIT_MESSAGE)],
        validate_choice=False,
    )
    submit = SubmitField("Save settings")

    def __init__(self, teacher_id: int, class_id: int, **kwargs: object):
        super().__init__(**kwargs)
        self.teacher_id = teacher_id
        self.class_id = class_id

    def validate_desired_retention(self, field: DecimalField) -> None:
        if field.data is not None and field.data != field.data.to_integral_value():
            raise ValidationError(RETENTION_MESSAGE)

    def validate_daily_amount(self, field: WholeNumberField) -> None:
        # A posted amount needs its unit posted with it: a missing one is not taken as the default.
        if field.data is not None and not (self.daily_unit.raw_data and self.daily_unit.data):
            raise ValidationError(UNIT_MESSAGE)
        if problem := amount_problem(field.data, self.daily_unit.data):
            raise ValidationError(problem)


class NewStudentsForm(FlaskForm):
    """A pasted list of names, one per line: an account is made for each."""

    names = TextAreaField(
        "Student names, one per line",
        validators=[
            Length(
                max=MAX_NAMES * 80,
                message=f"That list is too long. Add at most {MAX_NAMES} names at a time.",
            )
        ],
        description=(
            f"Up to {MAX_NAMES} names. “Maria Gonzalez” becomes the username maria.g; "
            "“Gonzalez, Maria” works too. Each name is printed on its login slip and kept as the "
            "student’s real name in this class: only you see it, never the student or other teachers."
        ),
        render_kw={"rows": 12, "autocomplete": "off", "spellcheck": "false"},
    )
    #: One use per list, so reloading the slips page does not make the accounts a second time.
    batch = HiddenField()
    submit = SubmitField("Create accounts")

    parsed: list[StudentName]

    def validate_names(self, field: TextAreaField) -> None:
        try:
            self.parsed = parse_names(field.data or "")
        except NameListError as error:
            raise ValidationError(" ".join(error.messages)) from None


class JoinForm(FlaskForm):
    """A join code typed by a student."""

    code = StringField(
        "Class code",
        validators=[DataRequired(message="Type the code your teacher gave you.")],
        description=f"{JOIN_CODE_LENGTH} letters and numbers, from your teacher.",
        render_kw={
            "autocomplete": "off",
            "autocapitalize": "characters",
            "spellcheck": "false",
            "maxlength": 20,
        },
    )
    submit = SubmitField("Join")

    def validate_code(self, field: StringField) -> None:
        code = normalise_code(field.data or "")
        if len(code) != JOIN_CODE_LENGTH or not code.isalnum():
            raise ValidationError(
                f"A class code has {JOIN_CODE_LENGTH} letters and numbers, like ABCD2345. Check it with your teacher."
            )
        field.data = code


class ConfirmForm(FlaskForm):
    """A button that does one thing: a POST with a CSRF token and nothing else."""

    submit = SubmitField("Confirm")


class DisplayNameForm(FlaskForm):
    """A student's real name in a class, seen only by its teacher (issue 24); empty clears it."""

    display_name = StringField(
        "Real name (only you see it)",
        validators=[
            Optional(),
            TypedName(),
            Length(
                max=DISPLAY_NAME_MAX,
                message=f"A name has at most {DISPLAY_NAME_MAX} characters.",
            ),
        ],
        description=(
            "Shown next to the username on your pages of this class, on its downloads and on "
            "the projector. The student, their classmates and other teachers never see it. "
            "Leave it empty to remove it."
        ),
        render_kw={"maxlength": DISPLAY_NAME_MAX, "autocomplete": "off", "spellcheck": "false"},
    )
    submit = SubmitField("Save the name")


class JoiningForm(FlaskForm):
    """Open or close joining (the button says which)."""

    joining = HiddenField(validators=[AnyOf(["open", "closed"], message="Choose open or closed.")])
    submit = SubmitField("Save")


# --- Assignments ---------------------------------------------------------------------------------

#: How far ahead an assignment may start, and how long it may run.
MAX_DAYS_AHEAD = 366
MAX_STATES_TEXT = 2000
FACETS_MESSAGE = "Tick the facts from the list."


def scope_fields(facets_help: str, states_help: str) -> tuple[Any, Any, Any]:
    """The three fields of a scope (P-A1), as an assignment and a class game ask for it: which
    facts, which part of the country, and hand-picked states (read by :func:`parse_states`)."""
    facets = CheckboxListField(
        "Facts",
        choices=[SelectChoice(f.value, f.label) for f in Facet],
        validate_choice=True,
        description=facets_help,
    )
    area = SelectField(
        "Part of the country", choices=_AREA_CHOICES, default="", validate_choice=True
    )
    states = TextAreaField(
        "Hand-picked states (optional)",
        validators=[Length(max=MAX_STATES_TEXT, message="That list is too long.")],
        description=states_help,
        render_kw={"rows": 2},
    )
    return facets, area, states


class AssignmentForm(FlaskForm):
    """Practice for a class: activities, an optional scope, an amount or a goal, dates, and who.

    ``validate`` also checks the scope against the activities (P-A1) and the dates against today
    in the teacher's time zone; the parsed scope and students are left in ``scope`` and ``chosen``.
    """

    title = StringField(
        "Title (optional)",
        validators=[
            Optional(),
            TypedName(),
            Length(
                max=ASSIGNMENT_TITLE_MAX,
                message=f"Keep the title under {ASSIGNMENT_TITLE_MAX} characters.",
            ),
        ],
        description="Students see it on their home page. Left empty, it says what, where and how much, e.g. “Capitals of the Northeast at 90%”.",
        render_kw={"maxlength": ASSIGNMENT_TITLE_MAX},
    )
    activities = CheckboxListField(
        "Activities",
        choices=[SelectChoice(a.slug, a.title) for a in ACTIVITIES.values()],
        validate_choice=True,
        description="Any of them counts towards the assignment.",
    )
    facets, area, states = scope_fields(
        "None ticked: every fact the activities ask about.",
        "State names or postal codes, separated by commas or new lines. They are added to the part of the country.",
    )
    amount = RadioField(
        "What finishes it",
        choices=[
            SelectChoice(Amount.ROUNDS.value, "A number of rounds or games"),
            SelectChoice(Amount.REVIEWS.value, "A number of answers (reviews)"),
            SelectChoice(
                Amount.RECALL.value, "A goal: every fact in scope remembered on the due date"
            ),
        ],
        default=Amount.ROUNDS.value,
        validators=[InputRequired(message="Choose what finishes the assignment.")],
    )
    quantity = IntegerField(
        "How many",
        validators=[Optional()],
        description=f"Only for a number of rounds or answers. Rounds: 1 to {MAX_ROUNDS}. Answers: 1 to {MAX_REVIEWS}.",
        render_kw={"inputmode": "numeric", "min": 1, "max": MAX_REVIEWS},
    )
    target = IntegerField(
        "Goal: predicted recall on the due date (%)",
        default=round(DEFAULT_TARGET * 100),
        validators=[Optional()],
        description=f"Only for a goal. From {round(MIN_TARGET * 100)} to {round(MAX_TARGET * 100)}. 90 means each fact is 90% likely to be remembered.",
        render_kw={
            "inputmode": "numeric",
            "min": round(MIN_TARGET * 100),
            "max": round(MAX_TARGET * 100),
        },
    )
    starts_on = DateField(
        "Starts on", validators=[InputRequired(message="Choose the day it starts.")]
    )
    due_on = DateField("Due on", validators=[InputRequired(message="Choose the day it is due.")])
    test_on = DateField(
        "Test day (optional)",
        validators=[Optional()],
        description="The day the class is tested on these facts. Each student's reviews are timed so the facts are remembered that day.",
    )
    test_target = target_on_test_day_field(
        "Only for a number of rounds or answers: a goal aims at its own percent on the test day."
    )
    who = RadioField(
        "For",
        choices=[
            SelectChoice("everyone", "Everyone in the class (and anyone who joins later)"),
            SelectChoice("some", "Only the students ticked below"),
        ],
        default="everyone",
        validators=[InputRequired(message="Choose who the assignment is for.")],
    )
    students = CheckboxListField(
        "Students",
        coerce=int,
        validate_choice=True,
        description="Only for “Only the students ticked below”.",
    )
    submit = SubmitField("Set the assignment")

    #: The fields that apply only to some answers of another field: name -> (that field, the
    #: values it applies to). The page hides the others (static/js/assignment_form.js), and
    #: ``validate`` ignores what they hold, so a value left in a hidden field is not saved.
    APPLIES: dict[str, tuple[str, frozenset[str]]] = {
        "quantity": ("amount", frozenset({Amount.ROUNDS.value, Amount.REVIEWS.value})),
        "target": ("amount", frozenset({Amount.RECALL.value})),
        "test_target": ("amount", frozenset({Amount.ROUNDS.value, Amount.REVIEWS.value})),
        "students": ("who", frozenset({"some"})),
    }

    def __init__(
        self,
        deck: Deck,
        students: list[tuple[int, str]],
        today: dt.date,
        *args: object,
        **kwargs: object,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.deck = deck
        self.today = today
        self.students.choices = students
        self.scope = Scope()
        self.chosen: list[int] = []
        # An assignment being edited: its due date and test day, kept as they are, may have passed.
        self.kept_due: dt.date | None = None
        self.kept_test_on: dt.date | None = None

    def chosen_activities(self) -> list[Activity]:
        return [ACTIVITIES[slug] for slug in self.activities.data or [] if slug in ACTIVITIES]

    def applies(self, name: str) -> bool:
        """Whether the field ``name`` applies to the answers given (all do before an answer)."""
        if name not in self.APPLIES:
            return True
        other, values = self.APPLIES[name]
        chosen = self[other].data
        return chosen not in {choice.value for choice in self[other].choices} or chosen in values

    def validate(self, extra_validators: object = None) -> bool:
        super().validate(extra_validators)
        for name in self.APPLIES:
            if not self.applies(name):  # a stale value in a field that does not apply: ignored
                self[name].errors = []
                self[name].data = [] if name == "students" else None
        ok = not any(field.errors for field in self)
        if not self.activities.data:
            self.activities.errors = [*self.activities.errors, "Choose at least one activity."]
            ok = False
        amount = self.amount.data
        if amount == Amount.ROUNDS.value and not (
            self.quantity.data and 1 <= self.quantity.data <= MAX_ROUNDS
        ):
            self.quantity.errors = [
                *self.quantity.errors,
                f"Type how many rounds, from 1 to {MAX_ROUNDS}.",
            ]
            ok = False
        if amount == Amount.REVIEWS.value and not (
            self.quantity.data and 1 <= self.quantity.data <= MAX_REVIEWS
        ):
            self.quantity.errors = [
                *self.quantity.errors,
                f"Type how many answers, from 1 to {MAX_REVIEWS}.",
            ]
            ok = False
        low, high = round(MIN_TARGET * 100), round(MAX_TARGET * 100)
        if amount == Amount.RECALL.value and not (
            self.target.data is not None and low <= self.target.data <= high
        ):
            self.target.errors = [*self.target.errors, f"Type a goal from {low} to {high} (%)."]
            ok = False
        ok = self._check_dates() and ok
        ok = self._check_test_day() and ok
        ok = self._check_scope() and ok
        self._suggest_title()
        if self.who.data == "some":
            self.chosen = list(dict.fromkeys(self.students.data or []))
            if not self.chosen:
                self.students.errors = [
                    *self.students.errors,
                    "Tick at least one student, or set it for everyone.",
                ]
                ok = False
        return ok

    def _suggest_title(self) -> None:
        """Show the title an empty title field will get as the field's placeholder, once the
        activities, scope and amount are valid (after "Preview" or a refused form)."""
        activities = self.chosen_activities()
        if not activities or self.facets.errors or self.states.errors or self.area.errors:
            return
        amount = self.amount.data
        if amount not in {a.value for a in Amount} or self.quantity.errors or self.target.errors:
            return
        amount = Amount(amount)
        if amount is Amount.RECALL and self.target.data is None:
            return
        if amount is not Amount.RECALL and not self.quantity.data:
            return
        suggestion = default_title(
            self.scope,
            self.deck,
            activities,
            amount,
            self.quantity.data,
            self.target.data / 100 if amount is Amount.RECALL and self.target.data else None,
            ASSIGNMENT_TITLE_MAX,
        )
        # A new dict: render_kw is shared by every form of this class.
        self.title.render_kw = {**(self.title.render_kw or {}), "placeholder": suggestion}

    def _check_dates(self) -> bool:
        start, due = self.starts_on.data, self.due_on.data
        if start is None or due is None:
            return False
        if due < start:
            self.due_on.errors = [
                *self.due_on.errors,
                "The due date is before the start date. Choose a due date on or after the start.",
            ]
            return False
        if due < self.today and due != self.kept_due:
            self.due_on.errors = [
                *self.due_on.errors,
                "That due date has passed. Choose today or a later day.",
            ]
            return False
        if (
            start > self.today + dt.timedelta(days=MAX_DAYS_AHEAD)
            or (due - start).days > MAX_DAYS_AHEAD
        ):
            self.due_on.errors = [
                *self.due_on.errors,
                "An assignment can start and run for up to a year.",
            ]
            return False
        return True

    def _check_test_day(self) -> bool:
        """The optional test day: on or after the start, not past, at most a year ahead (P-A5)."""
        if self.test_on.data is None:
            return not self.test_on.errors
        kept = self.test_on.data == self.kept_test_on  # a passed test day, left as it was
        today = min(self.today, self.test_on.data) if kept else self.today
        problem = test_day_problem(self.test_on.data, self.starts_on.data, today)
        if problem:
            self.test_on.errors = [*self.test_on.errors, problem]
        return problem is None

    def test_target_value(self) -> float | None:
        """The stored "remember on test day" (None without a test day, or for a recall goal, P-A5)."""
        if self.test_on.data is None or self.amount.data == Amount.RECALL.value:
            return None
        return int(self.test_target.data or round(DEFAULT_TEST_TARGET * 100)) / 100

    def _check_scope(self) -> bool:
        postals, unknown = parse_states(self.states.data or "", self.deck)
        if unknown:
            shown = ", ".join(f"“{name}”" for name in unknown[:5])
            self.states.errors = [
                *self.states.errors,
                f"These are not US states: {shown}. Check the spelling, or use postal codes.",
            ]
            return False
        known = {facet.value for facet in Facet}
        if any(value not in known for value in self.facets.data or []):
            # Only a forged form sends another value; WTForms' own message would quote it back.
            self.facets.errors = [FACETS_MESSAGE]
            return False
        facets = frozenset(Facet(value) for value in self.facets.data or [])
        self.scope = Scope(facets, self.area.data or "", frozenset(postals))
        activities = self.chosen_activities()
        if not activities:
            return False
        problems = scope_problems(activities, self.scope, self.deck)
        if problems:
            self.facets.errors = [*self.facets.errors, *problems]
            return False
        return True


def parse_states(text: str, deck: Deck) -> tuple[list[str], list[str]]:
    """The postal codes a typed list of states names (names, or postal codes in any case with or
    without dots: P-H6), and the entries that name no state."""
    postals: list[str] = []
    unknown: list[str] = []
    for raw in text.replace(";", ",").replace("\n", ",").split(","):
        entry = " ".join(raw.split())
        if not entry:
            continue
        postal = read_state(entry, deck)  # "MT", "mt" and "Mt." are Montana (P-H6)
        if postal is None:
            unknown.append(entry)
        elif postal not in postals:
            postals.append(postal)
    return postals, unknown


class StartActivityForm(FlaskForm):
    """A student starts one of an assignment's activities."""

    activity = HiddenField(validators=[DataRequired()])
    level = SelectField(
        "Computer level",
        choices=[
            SelectChoice("easy", "Easy"),
            SelectChoice("medium", "Medium"),
            SelectChoice("hard", "Hard"),
        ],
        default="medium",
        validate_choice=True,
    )
    submit = SubmitField("Start")


# --- Tournaments (Combo 1: K1, K3, K4) -----------------------------------------------------------

from ..models import TOURNAMENT_NAME_MAX  # noqa: E402  (the tournament forms were added last)

#: The most games a team can win (or tie) in one match, as the teacher types them: more than a
#: 20-minute round holds.
MAX_MATCH_GAMES = 20
GAMES_MESSAGE = f"Type a whole number from 0 to {MAX_MATCH_GAMES}."
#: Students in a team the teacher forms: 3 as the rules say, or 2 or 4 when the class does not
#: divide into threes (as the random teams of ruling P-K4).
MIN_TEAM_SIZE, MAX_TEAM_SIZE = 2, 4
#: The team choice of a student who is not playing (absent, say).
NOT_PLAYING = "0"


class NewTournamentForm(FlaskForm):
    """A new class tournament: its name, and teams drawn at random or formed by the teacher.

    Made by :func:`new_tournament_form`, which adds one team select per student of the class. A
    valid form leaves the teacher's teams in ``chosen`` (team number -> student ids).
    """

    name = StringField(
        "Tournament name",
        validators=[
            DataRequired(message="Give the tournament a name."),
            TypedName(),
            Length(
                max=TOURNAMENT_NAME_MAX,
                message=f"A tournament name has at most {TOURNAMENT_NAME_MAX} characters.",
            ),
        ],
        description="For example “Combo 1 Friday”. It shows on the projector.",
        render_kw={"maxlength": TOURNAMENT_NAME_MAX, "autocomplete": "off"},
    )
    teams = RadioField(
        "Teams",
        choices=[
            SelectChoice(
                "random",
                "At random: teams of 3 (with one team of 4 or 2 when the class does not divide into threes)",
            ),
            SelectChoice("manual", "I’ll form them: choose each student’s team below"),
        ],
        default="random",
        validators=[InputRequired(message="Choose random teams or your own.")],
    )
    submit = SubmitField("Create the tournament")

    #: Each student of the class and the select of their team.
    student_fields: list[tuple[int, SelectField]]
    chosen: dict[int, list[int]]

    def validate(self, extra_validators: object = None) -> bool:
        ok = super().validate(extra_validators)
        self.chosen = {}
        if self.teams.data != "manual" or not ok:
            return ok
        teams: dict[int, list[int]] = {}
        for student_id, field in self.student_fields:
            number = whole_number(
                field.data
            )  # a valid choice by now: "0" (not playing) to the last team
            if number:
                teams.setdefault(number, []).append(student_id)
        problems = []
        if len(teams) < 2:
            problems.append("Put students in at least two teams.")
        for number, members in sorted(teams.items()):
            if not MIN_TEAM_SIZE <= len(members) <= MAX_TEAM_SIZE:
                problems.append(
                    f"Team {number} has {len(members)} student{'' if len(members) == 1 else 's'}: a team needs "
                    f"{MIN_TEAM_SIZE} to {MAX_TEAM_SIZE} (the rules say 3). Move students, or leave a team number unused."
                )
        if problems:
            self.teams.errors = [*self.teams.errors, *problems]
            return False
        self.chosen = dict(sorted(teams.items()))
        return True


def new_tournament_form(
    students: list[tuple[int, str]], teams: int, **kwargs: object
) -> NewTournamentForm:
    """The new-tournament form with a team select ("Team 1" to "Team ``teams``", or not playing)
    for each of ``students`` (id, username), first set to deal them out in turn."""
    choices = [SelectChoice(NOT_PLAYING, "Not playing")] + [
        SelectChoice(str(n), f"Team {n}") for n in range(1, teams + 1)
    ]
    fields = {
        f"team_{student_id}": SelectField(
            username,
            choices=choices,
            default=str(index % teams + 1) if teams else NOT_PLAYING,
            validate_choice=True,
        )
        for index, (student_id, username) in enumerate(students)
    }
    form_class = type("NewTournamentFormForClass", (NewTournamentForm,), fields)
    form: NewTournamentForm = form_class(**kwargs)
    form.student_fields = [(student_id, form[f"team_{student_id}"]) for student_id, _ in students]
    return form


def _games_field(label: str) -> IntegerField:
    return IntegerField(
        label,
        validators=[
            InputRequired(message=GAMES_MESSAGE),
            NumberRange(min=0, max=MAX_MATCH_GAMES, message=GAMES_MESSAGE),
        ],
        render_kw={"inputmode": "numeric", "min": 0, "max": MAX_MATCH_GAMES},
    )


class MatchResultForm(FlaskForm):
    """A round's match result as the teacher enters it: games won by each team, games tied (K1).

    The view names the teams in the labels and gives each match's form its own prefix.
    """

    a_games = _games_field("Games won by the first team")
    b_games = _games_field("Games won by the second team")
    tied_games = _games_field("Games tied")
    submit = SubmitField("Save the result")

    def validate(self, extra_validators: object = None) -> bool:
        ok = super().validate(extra_validators)
        for field in (self.a_games, self.b_games, self.tied_games):
            if field.errors:
                field.errors = [
                    GAMES_MESSAGE
                ]  # one message, whether the text was no number or out of range
        return ok


class TournamentGameForm(FlaskForm):
    """The result of the playoff or championship game due: who won, or a tie.

    The hidden fields name the game the page showed (its number and teams): a form sent for a
    game that is no longer the one due (sent twice, or from an old page) changes nothing.
    """

    number = HiddenField()
    a_team = HiddenField()
    b_team = HiddenField()
    winner = RadioField(
        "Who won?",
        choices=[],
        validators=[InputRequired(message="Choose the team that won, or a tie.")],
    )
    submit = SubmitField("Save the result")


class TournamentStepForm(FlaskForm):
    """A tournament button (start the clock, pair the next round, undo) with the state it was
    pressed in (``expected``: the round, or the result to undo): pressed twice, it acts once."""

    expected = HiddenField()
    submit = SubmitField("Go")
