"""No input gives a 500 (issue 18, section 4): hostile values to every route, every field, every role.

The routes come from the app's URL map, so a route added later is fuzzed as soon as it exists (a
new argument the world cannot fill gets a placeholder; a new role in the access matrix's world is
fuzzed too). The world is the access matrix's (``test_access._build_world``): two teachers with a
class each, their students, an assignment, a study round, a State IQ game, a Dashing States round,
a Border-Up round, a card game, a Combo 1 match and a tournament with a match, so the URLs name
real rows.

Each route gets every method it allows (GET, POST; HEAD, OPTIONS and one it refuses once), as
every role. The fields of a form are read from the forms of every page the role can open, plus the
few a view reads that its page fills in later (``VIEW_FIELDS``, ``QUERY_FIELDS``). How much is sent
depends on the role (``Depth``):

- the route's first role let in (the first with a form for it): the form as the page sends it,
  with and without its CSRF token; every field hostile at once, for each hostile value; no field
  at all; each field alone made hostile (``PER_FIELD`` values, rotated), missing, or sent twice;
  each path argument made hostile, for each hostile value; query fields likewise;
- another role let in: the same without the one-field-at-a-time forms;
- a role the route refuses: the form, with and without the token, and a few hostile values.

Hostile values (``HOSTILE``): a NUL byte, digits of other scripts (² and ٣), numbers past 32 and
64 bits, -1, sNaN, inf, 10,000 characters, a right-to-left override and a zero-width space.

It asserts that no response is a server error (5xx); that none is the database refusing the data
(the error page's 400 for a DataError means the input reached SQL); and that a refused request (an
error status, a redirect to log in, a form shown again with its errors) changed no row. A request
that sent no INSERT, UPDATE or DELETE to the database changed nothing; one that did is compared
table by table with the database before it (no column is left out). Whatever an accepted request
changed is put back, so every request meets the same world. A refusal answered with a redirect
and a message ("that move was already made") is counted as accepted: its rows are put back, not
checked.

The budget is fixed and the choices are seeded: the same requests every run. The figures
(requests, refusals, server errors, rows changed by refusals) are printed at the end of each run,
with or without ``-s``.
"""

from __future__ import annotations

import enum
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote, urlencode, urljoin, urlsplit

import pytest
from flask import Flask, got_request_exception
from flask.testing import FlaskClient
from sqlalchemy import event, update
from werkzeug.routing import Rule

from tests.conftest import CSRF_INPUT, database_params, make_test_config, make_user
from tests.web import test_access as access
from trainer.web import create_app, errors
from trainer.web.extensions import db
from trainer.web.models import ClassMembership, Role, User

# --- What is sent ------------------------------------------------------------------------------

#: (name, value): each crashed some request before issue 18, or is the kind that does.
HOSTILE: list[tuple[str, str]] = [
    ("nul", "ab\x00cd"),
    ("superscript-two", "²"),
    ("arabic-three", "٣"),
    ("int32+1", str(2**31)),
    ("int64+1", str(2**63)),
    ("minus-one", "-1"),
    ("snan", "sNaN"),
    ("inf", "inf"),
    ("overlong", "x" * 10_000),
    ("bidi", "\u202eevil"),
    ("zero-width", "a\u200bb"),
]
#: Values sent one field at a time, per field (rotated over HOSTILE so that every value meets
#: every kind of field somewhere while the budget stays fixed).
PER_FIELD = 3
#: Hostile values per path argument for a role the route refuses (all of them for a role let in).
REFUSED_PATH_VALUES = 2
SEED = 18

#: Fields a view reads that its page (as the world leaves it) does not show: the Border-Up call is
#: made on cards not yet turned over, a study round's next item, a move at the card table.
VIEW_FIELDS: dict[str, dict[str, str]] = {
    "study.item": {"answer": "Ohio", "elapsed_ms": "1500", "served": "", "dont_know": ""},
    "play.state_iq_move": {"turn": "0", "answer": "Ohio"},
    "play.dashing_call": {
        **{f"place-{i}": str(i) if i else "aside" for i in range(5)},
        **{f"name-{i}": "Ohio" for i in range(5)},
        **{f"capital-{i}": "Columbus" for i in range(5)},
    },
    "play.border_up_call": {"group-CO": "1", "group-UT": "1", "group-WY": "2"},
    "play.game_move": {"ply": "0", "action": "0", "number": "12", "call": "wins", "battles": "1"},
    "play.combo_next": {"position": "0"},
    "play.combo_stop": {"position": "0"},
}
#: Query arguments a view reads (besides its page's GET forms).
QUERY_FIELDS: dict[str, list[str]] = {
    "auth.login": ["next"],
    "auth.signup": ["next"],
    "deck.index": ["sort", "zone"],
    "play.game_table": ["since"],
    "dashboard.student": ["state"],
    "dashboard.class_dashboard": ["date", "state"],
    "teach.export_reviews": ["start", "end"],
}
#: Path arguments beyond the access matrix's: the study round's next (unanswered) item.
ARGS_HERE = {"index": "2"}
#: Endpoints whose answer is not a page of the app (a static file): their paths are fuzzed only.
NOT_PAGES = {"static", "dashboard.plotly_js", "deck.map_sprite"}


# --- The forms of a page -------------------------------------------------------------------------


@dataclass
class FormSpec:
    """A form as a browser would send it: its fields with the values the page gave them."""

    method: str
    action: str
    values: dict[str, list[str]] = field(default_factory=dict)
    #: Named buttons: sent only when pressed, so fuzzed but not in the baseline.
    buttons: dict[str, str] = field(default_factory=dict)

    @property
    def csrf_names(self) -> list[str]:
        """Its CSRF fields: ``csrf_token``, or ``<prefix>-csrf_token`` for a form with a prefix."""
        return [name for name in self.values if is_csrf(name)]


def is_csrf(name: str) -> bool:
    return name == "csrf_token" or name.endswith("-csrf_token")


class FormParser(HTMLParser):
    """The forms of a page: each input, select, textarea and named button, with its value."""

    def __init__(self, page_url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_url = page_url
        self.forms: list[FormSpec] = []
        self._form: FormSpec | None = None
        self._select: str | None = None
        self._select_first: str | None = None
        self._select_chosen = False
        self._textarea: str | None = None
        self._unchecked: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            action = urlsplit(urljoin(self.page_url, a.get("action") or self.page_url)).path
            self._form = FormSpec((a.get("method") or "get").lower(), action)
            self.forms.append(self._form)
            self._unchecked = set()
            return
        form, name = self._form, a.get("name")
        if form is None:
            return
        if tag == "option" and self._select is not None:
            value = a.get("value", "")
            if self._select_first is None:
                self._select_first = value
            if "selected" in a:
                form.values[self._select] = [value]
                self._select_chosen = True
            return
        if not name:
            return
        if tag == "input":
            kind = (a.get("type") or "text").lower()
            value = a.get("value", "on" if kind in ("checkbox", "radio") else "")
            if kind in ("submit", "image", "button", "reset"):
                form.buttons.setdefault(name, value)
            elif kind == "checkbox":
                # The checked boxes; none checked, the first box (a form that asks for "at least
                # one" is then valid).
                if "checked" in a:
                    chosen = [] if name in self._unchecked else form.values.get(name, [])
                    self._unchecked.discard(name)
                    form.values[name] = [*chosen, value]
                elif name not in form.values:
                    form.values[name] = [value]
                    self._unchecked.add(name)
            elif kind == "radio":
                if "checked" in a or name not in form.values:
                    form.values[name] = [value]
            else:
                form.values.setdefault(name, [value])
        elif tag == "button":
            form.buttons.setdefault(name, a.get("value", ""))
        elif tag == "select":
            self._select, self._select_first, self._select_chosen = name, None, False
        elif tag == "textarea":
            self._textarea = name
            form.values[name] = [""]

    def handle_data(self, data: str) -> None:
        if self._form is not None and self._textarea is not None:
            self._form.values[self._textarea] = [self._form.values[self._textarea][0] + data]

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select" and self._select is not None and self._form is not None:
            if not self._select_chosen:
                self._form.values[self._select] = [self._select_first or ""]
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def forms_of(page_url: str, html: str) -> list[FormSpec]:
    parser = FormParser(page_url)
    parser.feed(html)
    return parser.forms


# --- The world, with CSRF on --------------------------------------------------------------------


@dataclass
class Fuzz:
    """The world, each role's cookie and CSRF token, the forms found, and what happened."""

    world: access.World
    roles: tuple[str, ...]
    tokens: dict[str, str] = field(default_factory=dict)
    cookies: dict[str, str] = field(default_factory=dict)
    #: (role, method, path) -> the forms that send to it.
    forms: dict[tuple[str, str, str], list[FormSpec]] = field(default_factory=dict)
    writes: list[str] = field(default_factory=list)
    #: The exceptions of the request being sent (a 500's cause).
    crashes: list[str] = field(default_factory=list)
    baseline: access.Dump = field(default_factory=dict)
    sent: int = 0
    refusals: int = 0
    server_errors: list[str] = field(default_factory=list)
    refused_data: list[str] = field(default_factory=list)
    changed_by_refusals: list[str] = field(default_factory=list)
    rows_changed_by_refusals: int = 0

    @property
    def app(self) -> Flask:
        return self.world.app

    def client(self, role: str) -> FlaskClient:
        client = self.app.test_client()
        if role in self.cookies:
            client.set_cookie(self.app.config["SESSION_COOKIE_NAME"], self.cookies[role])
        return client


def _sign_in_for_forms(fuzz: Fuzz, role: str) -> None:
    """Keep ``role``'s session cookie with a CSRF token in it, and the token a page gives for it."""
    client = fuzz.world.client(role)
    for page in ("/", "/auth/login"):
        match = CSRF_INPUT.search(client.get(page).get_data(as_text=True))
        if match:
            fuzz.tokens[role] = match.group(1) or match.group(2)
            break
    assert role in fuzz.tokens, f"no page with a CSRF token for {role}"
    cookie = client.get_cookie(fuzz.app.config["SESSION_COOKIE_NAME"])
    assert cookie is not None, role
    fuzz.cookies[role] = cookie.value


#: Students added to the class, so that it has enough for a tournament (its form is then shown).
EXTRA_STUDENTS = 5


def _more_of_the_world(world: access.World) -> tuple[str, ...]:
    """Add what the access matrix's world lacks for the fuzz: students enough in class C for a new
    tournament, and a school admin if the app has them and the matrix does not yet. Returns the
    roles added."""
    app = world.app
    with app.app_context():
        for n in range(EXTRA_STUDENTS):
            student_id = make_user(app, f"fuzz_kid_{n}", access.PASSWORD).id
            db.session.add(ClassMembership(class_id=world.class_id, student_id=student_id))
        db.session.commit()
    if "admin" in access.ROLES or not hasattr(User, "is_admin"):
        return ()
    admin = make_user(app, "ada_admin_z1", access.PASSWORD, Role.TEACHER)
    with app.app_context():
        db.session.execute(update(User).where(User.id == admin.id).values(is_admin=True))
        db.session.commit()
    world.cookies["admin"] = access._login(app, admin.username)
    return ("admin",)


@pytest.fixture(scope="module", params=database_params())
def fuzz(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Fuzz]:
    """The access matrix's world on a fresh database (built with CSRF off, then fuzzed with it on)."""
    # Crashes become the app's 500 page, as in production (the test notes each one's exception).
    config = make_test_config(request.param, tmp_path_factory.mktemp("fuzz"))
    config |= {"WTF_CSRF_ENABLED": False, "PROPAGATE_EXCEPTIONS": False}
    app = create_app(config)
    with app.app_context():
        db.drop_all()
        db.create_all()
    world = access._build_world(app)
    roles = tuple(access.ROLES) + _more_of_the_world(world)
    app.config["WTF_CSRF_ENABLED"] = True
    state = Fuzz(world, roles)
    for role in state.roles:
        _sign_in_for_forms(state, role)
    with app.app_context():
        engine = db.engine

    @event.listens_for(engine, "before_cursor_execute")
    def note_writes(conn, cursor, statement, parameters, context, executemany):  # noqa: ANN001
        if statement.lstrip()[:6].upper() in ("INSERT", "UPDATE", "DELETE"):
            state.writes.append(statement.split("\n", 1)[0][:80])

    def note_crash(sender: Flask, exception: BaseException, **extra: Any) -> None:
        first_line = (str(exception).splitlines() or [""])[0][:160]
        state.crashes.append(f"{type(exception).__name__}: {first_line}")

    got_request_exception.connect(note_crash, app)
    state.baseline = access._dump(app)
    yield state
    got_request_exception.disconnect(note_crash, app)
    event.remove(engine, "before_cursor_execute", note_writes)
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()


# --- URLs ----------------------------------------------------------------------------------------


def _rules(app: Flask) -> list[Rule]:
    return sorted(app.url_map.iter_rules(), key=lambda rule: (rule.endpoint, rule.rule))


def _world_value(fuzz: Fuzz, rule: Rule, name: str) -> str:
    """The world's value of a path argument (as the access matrix fills it), or a placeholder."""
    source = access.ARGS_BY_ENDPOINT.get(rule.endpoint, {}).get(name)
    if source is None and name == "token":
        source = next(
            (kind for prefix, kind in access.TOKEN_BY_PATH.items() if rule.rule.startswith(prefix)),
            None,
        )
    source = source or ARGS_HERE.get(name) or access.ARGS_BY_NAME.get(name)
    if source is None:  # an argument new to the world: a number or a word that names nothing
        return "1" if re.search(rf"<int(\([^)]*\))?:{name}>", rule.rule) else "placeholder"
    return fuzz.world.value(source)


#: A rule's variable part: ``<name>``, ``<int:name>``, ``<int(min=1):name>``.
RULE_VARIABLE = re.compile(r"<(?:[^<>:]+(?:\([^)]*\))?:)?([A-Za-z_][A-Za-z0-9_]*)>")


def url_for_rule(fuzz: Fuzz, rule: Rule, override: dict[str, str] | None = None) -> str:
    """The rule's path with the world's values, any of them replaced by ``override`` (as sent,
    percent-encoded), and the query a page needs to show what it is for."""
    values = {name: _world_value(fuzz, rule, name) for name in rule.arguments} | (override or {})
    path = RULE_VARIABLE.sub(lambda match: quote(values[match.group(1)], safe=""), rule.rule)
    query = access.QUERY_BY_ENDPOINT.get(rule.endpoint, dict)()
    return path + ("?" + urlencode(query) if query else "")


# --- Sending and judging -------------------------------------------------------------------------


@dataclass(frozen=True)
class Probe:
    role: str
    method: str
    url: str
    form: dict[str, Any] | None = None
    csrf: bool = True
    what: str = "as the page sends it"
    #: The names the form's CSRF token goes under (a form with a prefix has its own).
    csrf_names: tuple[str, ...] = ("csrf_token",)

    def describe(self, status: int) -> str:
        """The request as a line a person can send again (long values shortened)."""
        form = ""
        if self.form is not None:
            shown = {
                k: v if len(str(v)) < 40 else f"{str(v)[:20]}...({len(str(v))} chars)"
                for k, v in self.form.items()
            }
            form = f" form={shown!r}" + ("" if self.csrf else " (no CSRF token)")
        url = self.url if len(self.url) < 120 else self.url[:100] + f"...({len(self.url)} chars)"
        return f"{status}: {self.method} {url} as {self.role} [{self.what}]{form}"


def refused(probe: Probe, response, body: str) -> bool:
    """A refusal: an error status, a redirect to log in first, or a form shown again with its errors."""
    status = response.status_code
    if status >= 400:
        return True
    if 300 <= status < 400:
        location = urlsplit(response.headers.get("Location", ""))
        return location.path == "/auth/login" and "next=" in location.query
    return probe.method == "POST" and ('class="error-summary"' in body or "field--error" in body)


def send(fuzz: Fuzz, probe: Probe) -> None:
    """Send ``probe``, note what went wrong, and put back whatever it changed."""
    client = fuzz.client(probe.role)
    data = None
    if probe.form is not None:
        data = dict(probe.form)
        if probe.csrf and probe.role in fuzz.tokens:
            data |= dict.fromkeys(probe.csrf_names, fuzz.tokens[probe.role])
    fuzz.writes.clear()
    fuzz.crashes.clear()
    response = client.open(probe.url, method=probe.method, data=data)
    body = response.get_data(as_text=True) if response.mimetype == "text/html" else ""
    response.close()
    fuzz.sent += 1
    status = response.status_code
    if status >= 500 or fuzz.crashes:
        fuzz.server_errors.append(
            f"{probe.describe(status)} <- {'; '.join(fuzz.crashes) or 'no exception'}"
        )
    refused_data = getattr(errors, "REFUSED_DATA", None)
    if refused_data and status == 400 and refused_data in body:
        fuzz.refused_data.append(probe.describe(status))
    was_refused = refused(probe, response, body)
    fuzz.refusals += was_refused
    if not fuzz.writes:
        return
    after = access._dump(fuzz.app)
    if after == fuzz.baseline:
        return
    if was_refused:
        changed = _changed_rows(fuzz.baseline, after)
        fuzz.rows_changed_by_refusals += sum(len(keys) for keys in changed.values())
        fuzz.changed_by_refusals.append(f"{probe.describe(status)} changed {changed}")
    access._restore(fuzz.app, fuzz.baseline)


def _changed_rows(before: access.Dump, after: access.Dump) -> dict[str, list[Any]]:
    changed = {}
    for table, rows in after.items():
        keys = [
            key
            for key in rows.keys() | before[table].keys()
            if rows.get(key) != before[table].get(key)
        ]
        if keys:
            changed[table] = sorted(keys, key=str)
    return changed


# --- The probes ----------------------------------------------------------------------------------


def _allowed(endpoint: str, role: str) -> bool:
    """Whether the access matrix lets ``role`` use ``endpoint`` (a route it does not know yet: yes)."""
    expected = access.EXPECTED.get(endpoint, {}).get(role, access.OK)
    return expected in (access.OK, access.REDIRECT)


def _crawl(fuzz: Fuzz, rules: list[Rule]) -> None:
    """The forms on every page each role can open, by where they send."""
    for role in fuzz.roles:
        for rule in rules:
            if "GET" not in (rule.methods or ()) or rule.endpoint in NOT_PAGES:
                continue
            url = url_for_rule(fuzz, rule)
            response = fuzz.client(role).get(url)
            if response.status_code != 200 or response.mimetype != "text/html":
                continue
            for form in forms_of(url, response.get_data(as_text=True)):
                method = "POST" if form.method == "post" else "GET"
                fuzz.forms.setdefault((role, method, form.action), []).append(form)
            if fuzz.writes:  # opening a page may start a clock: put it back
                access._restore(fuzz.app, fuzz.baseline)
                fuzz.writes.clear()


@dataclass(frozen=True)
class Fields:
    """What is sent to a route: the form as its page sends it, every field worth fuzzing, and
    the names its CSRF token goes under."""

    baseline: dict[str, Any]
    names: list[str]
    csrf_names: tuple[str, ...]


def _fields(fuzz: Fuzz, role: str, method: str, rule: Rule, url: str) -> Fields:
    """The form for ``rule`` as the first of the role's pages that sends there fills it in, plus
    the fields the view reads; every field name seen on any of them."""
    path = urlsplit(url).path
    forms = fuzz.forms.get((role, method, path), [])
    baseline: dict[str, Any] = {}
    names: dict[str, None] = {}
    csrf_names = ("csrf_token",)
    if forms:
        baseline = {
            name: values[0] if len(values) == 1 else list(values)
            for name, values in forms[0].values.items()
            if not is_csrf(name)
        }
        csrf_names = tuple(forms[0].csrf_names) or csrf_names
    for form in forms:
        names |= dict.fromkeys(n for n in [*form.values, *form.buttons] if not is_csrf(n))
    extra = (
        VIEW_FIELDS.get(rule.endpoint, {})
        if method == "POST"
        else dict.fromkeys(QUERY_FIELDS.get(rule.endpoint, []), "")
    )
    for name, value in extra.items():
        baseline.setdefault(name, value)
        names[name] = None
    return Fields(baseline, list(names), csrf_names)


class Depth(enum.Enum):
    """How much is sent to a route as one role."""

    #: The route's first role let in (the first with a form for it): every field, one at a time too.
    FULL = "full"
    #: Another role let in: every field hostile at once, every path value.
    LET_IN = "let in"
    #: A role the route refuses: a few values.
    REFUSED = "refused"


def probes_for(fuzz: Fuzz, rule: Rule, rng: random.Random) -> Iterator[Probe]:
    """Every request sent to ``rule``: per method and role, the form as the page sends it and its
    hostile forms; then the methods it does not take."""
    methods = [m for m in ("GET", "POST") if m in (rule.methods or ())]
    for method in methods:
        url = url_for_rule(fuzz, rule)
        fields = {
            role: Fields({}, [], ("csrf_token",))
            if rule.endpoint in NOT_PAGES
            else _fields(fuzz, role, method, rule, url)
            for role in fuzz.roles
        }
        let_in = [role for role in fuzz.roles if _allowed(rule.endpoint, role)]
        full = next((role for role in let_in if fields[role].names), let_in[0] if let_in else None)
        for role in fuzz.roles:
            depth = (
                Depth.FULL if role == full else Depth.LET_IN if role in let_in else Depth.REFUSED
            )
            yield from _path_probes(fuzz, rule, role, method, fields[role], depth, rng)
            if rule.endpoint in NOT_PAGES:
                continue
            if method == "GET":
                yield from _query_probes(role, url, fields[role], depth, rng)
            else:
                yield from _form_probes(role, url, fields[role], depth, rng)
    yield Probe("anonymous", "OPTIONS", url_for_rule(fuzz, rule), what="OPTIONS")
    yield Probe(
        fuzz.roles[-1],
        "PATCH",
        url_for_rule(fuzz, rule),
        form={},
        what="a method it does not allow",
    )
    if "GET" in methods:
        yield Probe(fuzz.roles[1], "HEAD", url_for_rule(fuzz, rule), what="HEAD")


def _rotation(rng: random.Random, count: int) -> list[tuple[str, str]]:
    """``count`` hostile values, from a seeded place in the list (every value comes up somewhere)."""
    start = rng.randrange(len(HOSTILE))
    return [HOSTILE[(start + i) % len(HOSTILE)] for i in range(count)]


def _path_probes(
    fuzz: Fuzz, rule: Rule, role: str, method: str, fields: Fields, depth: Depth, rng: random.Random
) -> Iterator[Probe]:
    for name in sorted(rule.arguments):
        values = _rotation(rng, REFUSED_PATH_VALUES) if depth is Depth.REFUSED else HOSTILE
        for label, value in values:
            url = url_for_rule(fuzz, rule, {name: value})
            form = None if method == "GET" else dict(fields.baseline)
            yield Probe(
                role, method, url, form, what=f"path <{name}> {label}", csrf_names=fields.csrf_names
            )


def _query_probes(
    role: str, url: str, fields: Fields, depth: Depth, rng: random.Random
) -> Iterator[Probe]:
    yield Probe(role, "GET", url, what="the page")
    baseline, names = fields.baseline, [*fields.names, "q"]
    join = "&" if "?" in url else "?"
    for label, value in _rotation(rng, 1) if depth is Depth.REFUSED else HOSTILE:
        yield Probe(
            role,
            "GET",
            url + join + urlencode({name: value for name in names}),
            what=f"every query field {label}",
        )
    if depth is Depth.FULL and baseline:
        doubled = [(name, v) for name in names for v in (baseline.get(name) or "1", "²")]
        yield Probe(role, "GET", url + join + urlencode(doubled), what="every query field twice")


def _form_probes(
    role: str, url: str, fields: Fields, depth: Depth, rng: random.Random
) -> Iterator[Probe]:
    baseline, names, csrf = fields.baseline, fields.names, fields.csrf_names

    def probe(form: dict[str, Any], what: str, with_csrf: bool = True) -> Probe:
        return Probe(role, "POST", url, form, csrf=with_csrf, what=what, csrf_names=csrf)

    yield probe(dict(baseline), "as the page sends it")
    yield probe(dict(baseline), "no CSRF token", with_csrf=False)
    every = [*names, "unexpected"]
    if depth is Depth.REFUSED:
        for label, value in _rotation(rng, 2):
            yield probe(dict.fromkeys(every, value), f"every field {label}")
        return
    for label, value in HOSTILE:
        yield probe(dict.fromkeys(every, value), f"every field {label}")
    yield probe({}, "no field at all")
    if depth is Depth.LET_IN:
        return
    label, value = _rotation(rng, 1)[0]
    yield probe(dict.fromkeys(every, value), f"every field {label}, no CSRF token", with_csrf=False)
    for name in names:
        for label, value in _rotation(rng, PER_FIELD):
            yield probe(baseline | {name: value}, f"{name} {label}")
        yield probe({k: v for k, v in baseline.items() if k != name}, f"{name} missing")
        first = baseline.get(name) if isinstance(baseline.get(name), str) else "1"
        yield probe(baseline | {name: [first, "²"]}, f"{name} twice")


# --- The test ------------------------------------------------------------------------------------


def test_no_input_gives_a_500_and_a_refusal_changes_nothing(
    fuzz: Fuzz, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every route, every method, every role, hostile values in every path argument and field."""
    started = time.perf_counter()
    rules = _rules(fuzz.app)
    _crawl(fuzz, rules)
    rng = random.Random(SEED)
    for rule in rules:
        for probe in probes_for(fuzz, rule, rng):
            send(fuzz, probe)
    seconds = time.perf_counter() - started
    database = fuzz.app.config["SQLALCHEMY_DATABASE_URI"].split(":", 1)[0]
    with capsys.disabled():
        print(
            f"\nfuzz on {database}: {fuzz.sent} requests to {len(rules)} routes as {len(fuzz.roles)} roles in {seconds:.0f} s; "
            f"{fuzz.refusals} refusals, {len(fuzz.server_errors)} server errors, "
            f"{len(fuzz.refused_data)} refused by the database, {fuzz.rows_changed_by_refusals} rows changed by refusals"
        )
    problems = (
        [f"server error: {p}" for p in fuzz.server_errors]
        + [f"data reached the database, which refused it: {p}" for p in fuzz.refused_data]
        + [f"refused but changed rows: {p}" for p in fuzz.changed_by_refusals]
    )
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:60])
