"""The card album page (#21, ruling P-L1): the student's own cards at their levels, a map coloured
by level with no plotly, the same access as the other student pages, readable colours."""

from __future__ import annotations

import datetime as dt
import html
import re

import pytest
from flask import Flask

from tests.web.test_colours import AA, colour_of, contrast
from trainer import srs
from trainer.album import CardLevel
from trainer.facts import Facet, Fact
from trainer.web.dashboard.album import memories_of, student_album
from trainer.web.extensions import db
from trainer.web.memory import today_for
from trainer.web.models import MemoryCard, User, utcnow

LONG_RUN = 30.0  # days of stability: past the dashboard's "mastered" 21


def remember(
    app: Flask, user: User, postal: str, facets, stability: float | None, days_ago: int = 0
) -> None:
    """Memory rows of ``user`` for ``postal``'s ``facets``, last reviewed ``days_ago`` study days
    before today (0: today, when the predicted recall is 1.0)."""
    with app.app_context():
        student = db.session.get(User, user.id)
        now = utcnow()
        day = today_for(student, now).date - dt.timedelta(days=days_ago)
        for facet in facets:
            db.session.add(
                MemoryCard(
                    student_id=user.id,
                    fact_key=Fact(postal, facet).key,
                    facet=facet.value,
                    state=int(srs.MemoryState.REVIEW),
                    step=None,
                    stability=stability,
                    difficulty=5.0,
                    due=now + dt.timedelta(days=1),
                    last_review=now - dt.timedelta(days=days_ago),
                    last_study_day=day,
                    lapses=0,
                    reps=3,
                    introduced_at=now - dt.timedelta(days=days_ago + 1),
                )
            )
        db.session.commit()


def the_riverside_album(world) -> None:
    """Colorado gold, Utah silver, Texas bronze (missed today), Ohio bronze (forgotten), and the
    other student's Wyoming gold."""
    app, river = world.app, world.student
    remember(app, river, "CO", list(Facet), LONG_RUN)
    remember(app, river, "UT", list(Facet)[:5], 3.0)
    remember(app, river, "TX", [Facet.MAP], 0.2)
    remember(app, river, "OH", list(Facet), 2.0, days_ago=60)
    remember(app, world.other_student, "WY", list(Facet), LONG_RUN)


def level_badges(page: str) -> dict[str, str]:
    """Each card's name and the level its badge says."""
    found = re.findall(
        r'<li class="album-card album-card--([a-z-]+)">.*?id="(?:card|album)-([A-Z]{2})-name".*?'
        r'<span class="album-badge__level">([^<]+)</span>',
        page,
        flags=re.S,
    )
    for slug, _postal, label in found:
        assert CardLevel[slug.upper().replace("-", "_")].label == html.unescape(label)
    return {postal: html.unescape(label) for _slug, postal, label in found}


def test_p_l1_the_levels_match_the_memories(world, app):
    the_riverside_album(world)
    with app.app_context():
        river = db.session.get(User, world.student.id)
        book, goal = student_album(river, utcnow())
        levels = {card.postal: card.level for card in book.cards}
    assert goal == pytest.approx(0.9)
    assert levels["CO"] is CardLevel.GOLD
    assert levels["UT"] is CardLevel.SILVER
    assert levels["TX"] is CardLevel.BRONZE
    assert levels["OH"] is CardLevel.BRONZE
    assert levels["WY"] is CardLevel.NOT_MET  # the other student's
    assert book.summary == "4 of 50 cards: 1 gold, 1 silver, 2 bronze"


def test_the_recall_is_the_apps_own(world, app):
    """The album's predicted recall is the forgetting curve the app computes (``srs.recall_after``
    over elapsed study days), not another formula."""
    remember(app, world.student, "OH", [Facet.CAPITAL], 2.0, days_ago=60)
    with app.app_context():
        got = memories_of(world.student.id, utcnow())["OH"][Facet.CAPITAL]
    assert got.recall == pytest.approx(srs.recall_after(2.0, 60), rel=1e-9)
    assert got.stability == 2.0


def test_a_student_sees_their_own_album(world):
    the_riverside_album(world)
    response = world.client("student").get("/progress/album/")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "4 of 50 cards: 1 gold, 1 silver, 2 bronze" in page
    badges = level_badges(page)
    assert len(badges) == 50
    assert badges["CO"] == "Gold" and badges["UT"] == "Silver"
    assert badges["TX"] == "Bronze" and badges["OH"] == "Bronze"
    assert badges["WY"] == "Not met yet"
    assert "5 of 8 facts known" in page  # Utah
    # The map colours each state by its level, and names it with its level.
    assert page.count('class="album-map__state album-level--') == 50
    assert "<title>Colorado: Gold</title>" in page and "<title>Wyoming: Not met yet</title>" in page
    # The legend says each colour in words.
    for level in CardLevel:
        assert f"<strong>{html.escape(level.label)}</strong>" in page
    # The other student's album is theirs: Wyoming gold, Colorado not met.
    theirs = level_badges(world.client("other_student").get("/progress/album/").get_data(True))
    assert theirs["WY"] == "Gold" and theirs["CO"] == "Not met yet"


def test_the_album_has_no_plotly_no_inline_script_or_style(world):
    page = world.client("student").get("/progress/album/").get_data(as_text=True)
    assert "plotly" not in page.lower()
    assert "0 of 50 cards: 0 gold, 0 silver, 0 bronze" in page
    scripts = re.findall(r"<script\b[^>]*>", page)
    assert scripts and all("src=" in tag and "defer" in tag for tag in scripts)
    assert " style=" not in page and " on" + "click=" not in page


def test_the_album_and_the_dashboard_are_one_click_apart(world):
    kid = world.client("student")
    album = kid.get("/progress/album/").get_data(as_text=True)
    main = album[album.index('<main id="main"') :]
    assert 'href="/progress/">Charts and numbers</a>' in main
    dashboard = kid.get("/progress/").get_data(as_text=True)
    main = dashboard[dashboard.index('<main id="main"') :]
    assert 'href="/progress/album/"' in main


def test_the_album_is_in_the_student_nav_and_marked_current(world):
    kid = world.client("student")
    album = kid.get("/progress/album/").get_data(as_text=True)
    nav = album[album.index('<nav class="site-nav"') : album.index("</nav>")]
    # The album is the student's progress page (#21): one Progress link, current on the album and
    # on the charts one click away.
    assert '<a href="/progress/album/" aria-current="page">Progress</a>' in nav
    assert nav.count('href="/progress/') == 1
    progress = kid.get("/progress/").get_data(as_text=True)
    nav = progress[progress.index('<nav class="site-nav"') : progress.index("</nav>")]
    assert '<a href="/progress/album/" aria-current="page">Progress</a>' in nav


def test_teachers_and_visitors_get_what_other_student_pages_give(world):
    for who in ("teacher", None):
        client = world.client(who)
        album = client.get("/progress/album/")
        progress = client.get("/progress/")
        assert album.status_code == progress.status_code, who
        if who is None:
            assert album.status_code == 302 and "/auth/login" in album.headers["Location"]
        else:
            assert album.status_code == 403
            page = client.get("/").get_data(as_text=True)
            assert "/progress/album/" not in page


# --- Colours -------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", list(CardLevel))
def test_the_badge_of_every_level_is_readable(level):
    selector = f".album-level--{level.slug}"
    ratio = contrast(colour_of(selector, "color"), colour_of(selector, "background"))
    assert ratio >= AA, f"{selector}: {ratio:.2f}:1"


def test_a_card_not_met_is_greyed_but_readable():
    background = colour_of(".album-card__unmet", "background")
    for selector in (".album-card__unmet", ".album-card__name a"):
        ratio = contrast(colour_of(selector, "color"), background)
        assert ratio >= AA, f"{selector}: {ratio:.2f}:1"


def test_green_means_known_and_the_shades_get_lighter():
    from tests.web.test_colours import luminance

    fills = [colour_of(f".album-level--{level.slug}", "fill") for level in CardLevel]
    gold = fills[CardLevel.GOLD.value]
    assert gold[1] > gold[0] and gold[1] > gold[2]  # green
    # Gold darkest, then silver, then bronze: the more known, the deeper the green.
    lum = [
        luminance(fills[level.value])
        for level in (CardLevel.GOLD, CardLevel.SILVER, CardLevel.BRONZE)
    ]
    assert lum == sorted(lum)
