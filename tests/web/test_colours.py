"""Colour contrast on the cards and charts (#21): every text colour is at least 4.5:1 on its
background (WCAG 2 AA for ordinary text).

The colours are read from where they are defined, not copied here: the stylesheet's custom
properties (``--zone-hawaii-aleutian`` ...) and its rules (``.gp-card__band`` ...), and the charts'
plotly template. So a new zone, a new card rule or a changed colour is checked as it is.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import trainer.web
from trainer import figures
from trainer.cards import Zone

SITE_CSS = Path(trainer.web.__file__).parent / "static" / "css" / "site.css"
AA = 4.5
RGB = tuple[int, int, int]

NAMED = {"white": (255, 255, 255), "black": (0, 0, 0), "#fff": (255, 255, 255)}


# --- The WCAG 2 contrast ratio ------------------------------------------------------------------


def parse_colour(text: str) -> RGB | None:
    """``#rgb``, ``#rrggbb``, ``white``/``black`` or an opaque ``rgb()``; None for anything else
    (transparent, gradients, translucent colours)."""
    text = text.strip().lower()
    if text in NAMED:
        return NAMED[text]
    if re.fullmatch(r"#[0-9a-f]{3}", text):
        r, g, b = (int(c * 2, 16) for c in text[1:])
        return r, g, b
    if re.fullmatch(r"#[0-9a-f]{6}", text):
        r, g, b = (int(text[i : i + 2], 16) for i in (1, 3, 5))
        return r, g, b
    match = re.fullmatch(r"rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*1(?:\.0*)?)?\)", text)
    if match:
        r, g, b = (int(x) for x in match.groups())
        return r, g, b
    return None


def luminance(rgb: RGB) -> float:
    """The relative luminance of an sRGB colour (WCAG 2)."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """The WCAG 2 contrast ratio of two colours, 1 to 21."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_contrast_ratio_matches_known_values():
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert contrast((255, 255, 255), (255, 255, 255)) == pytest.approx(1)
    assert contrast(parse_colour("#767676"), parse_colour("#fff")) == pytest.approx(4.54, abs=0.01)
    # The Hawaii band before #21: white on #e65100, about 3.8:1 (axe: serious).
    assert contrast(parse_colour("#e65100"), parse_colour("white")) == pytest.approx(3.79, abs=0.01)


# --- The stylesheet ------------------------------------------------------------------------------


def css_rules(css: str) -> list[tuple[tuple[str, ...], dict[str, str]]]:
    """Each rule's selectors and its declarations (the last one of a property wins), in order; the
    rules inside an ``@media`` block are included as they are (none of the card colours is in one)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    rules = []
    for head, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        selectors = tuple(s.strip() for s in head.split(",") if s.strip())
        declarations = {}
        for part in body.split(";"):
            name, colon, value = part.partition(":")
            if colon:
                declarations[name.strip()] = value.strip()
        rules.append((selectors, declarations))
    return rules


RULES = css_rules(SITE_CSS.read_text(encoding="utf-8"))
ROOT = next(d for selectors, d in RULES if selectors == (":root",))


def resolve(value: str, variables: dict[str, str]) -> str:
    """``value`` with every ``var(--name)`` / ``var(--name, fallback)`` replaced, recursively."""
    pattern = re.compile(r"var\(\s*(--[\w-]+)\s*(?:,\s*([^()]*))?\)")
    for _ in range(10):
        found = pattern.search(value)
        if not found:
            return value
        name, fallback = found.groups()
        got = variables.get(name, fallback)
        assert got is not None, f"{name} is not defined"
        value = value[: found.start()] + got + value[found.end() :]
    raise AssertionError(f"{value}: custom properties nested too deep")


def declared(selector: str, prop: str) -> str | None:
    """The value the stylesheet's last rule naming exactly ``selector`` gives ``prop``."""
    found = None
    for selectors, declarations in RULES:
        if selector in selectors and prop in declarations:
            found = declarations[prop]
    return found


def colour_of(selector: str, prop: str, variables: dict[str, str] | None = None) -> RGB:
    value = declared(selector, prop)
    assert value is not None, f"{selector} has no {prop}"
    rgb = parse_colour(resolve(value, {**ROOT, **(variables or {})}))
    assert rgb is not None, f"{selector} {{ {prop}: {value} }} is not one solid colour"
    return rgb


def root_colour(name: str) -> RGB:
    rgb = parse_colour(resolve(f"var({name})", ROOT))
    assert rgb is not None, name
    return rgb


#: Each ``.zone-*`` class and the ``--zone`` it sets (the six zones and the hidden zone).
ZONE_CLASSES = {
    selectors[0]: declarations["--zone"]
    for selectors, declarations in RULES
    if len(selectors) == 1 and selectors[0].startswith(".zone-") and "--zone" in declarations
}
PAPER = root_colour("--paper")
INK = root_colour("--ink")  # the body's text colour, inherited where a rule sets none


def test_every_zone_and_the_hidden_zone_has_a_colour():
    assert set(ZONE_CLASSES) == {f".zone-{z.slug}" for z in Zone} | {".zone-hidden"}


@pytest.mark.parametrize("zone_class", sorted(ZONE_CLASSES))
def test_the_band_of_every_zone_has_readable_text(zone_class):
    """The card's band: its text (the zone's name, the postal code) on the zone's colour."""
    zone = {"--zone": ZONE_CLASSES[zone_class]}
    text = colour_of(".gp-card__band", "color", zone)
    band = colour_of(".gp-card__band", "background", zone)
    ratio = contrast(text, band)
    assert ratio >= AA, f"{zone_class}: {ratio:.2f}:1 on the card's band"
    # The same colour draws the card's border, a chip's ring and a map's state: not text, but
    # at least 3:1 on the card's white (WCAG 1.4.11), which 4.5:1 for white text implies.
    assert contrast(band, PAPER) >= 3


def card_text_rules(prefix: str) -> list[tuple[str, RGB]]:
    """Each selector starting with ``prefix`` whose rule sets a text colour, and that colour."""
    found = []
    for selectors, declarations in RULES:
        for selector in selectors:
            if selector.startswith(prefix) and "color" in declarations:
                rgb = parse_colour(resolve(declarations["color"], ROOT))
                assert rgb is not None, f"{selector}: {declarations['color']}"
                found.append((selector, rgb))
    return found


def test_every_text_on_a_card_is_readable_on_the_card():
    card = colour_of(".gp-card", "background")
    texts = [(sel, rgb) for sel, rgb in card_text_rules(".gp-card") if sel != ".gp-card__band"]
    assert {".gp-card__label", ".gp-card__name a", ".gp-card__more-zones"} <= {s for s, _ in texts}
    for selector, rgb in [*texts, ("(inherited)", INK)]:
        ratio = contrast(rgb, card)
        assert ratio >= AA, f"{selector}: {ratio:.2f}:1 on the card"


def test_every_text_on_a_border_up_card_is_readable_in_every_group():
    backgrounds = {
        selector: colour_of(selector, "background")
        for selector in (".bu__card", '.bu__card[data-group="1"]', '.bu__card[data-group="2"]')
    }
    texts = [(sel, rgb) for sel, rgb in card_text_rules(".bu__") if sel != ".bu__back"]
    assert {".bu__postal", ".bu__hint-label"} <= {s for s, _ in texts}
    for where, background in backgrounds.items():
        for selector, rgb in [*texts, ("(inherited)", INK)]:
            ratio = contrast(rgb, background)
            assert ratio >= AA, f"{selector} on {where}: {ratio:.2f}:1"


def test_the_backs_of_the_cards_are_readable_on_both_stripes():
    text = colour_of(".bu__back", "color")
    stripes = re.findall(r"#[0-9a-fA-F]{6}|var\(--[\w-]+\)", declared(".bu__back", "background"))
    assert stripes
    for stripe in stripes:
        stripe_rgb = parse_colour(resolve(stripe, ROOT))
        assert stripe_rgb is not None
        assert contrast(text, stripe_rgb) >= AA, stripe


def test_a_chip_is_readable():
    assert contrast(colour_of(".chip", "color"), colour_of(".chip", "background")) >= AA


def test_every_rule_that_sets_both_colours_is_readable():
    """Anywhere on the site: a rule that sets a solid text colour and a solid background."""
    checked = 0
    for selectors, declarations in RULES:
        background = declarations.get("background-color", declarations.get("background"))
        if "color" not in declarations or background is None:
            continue
        uses_zone = "var(--zone" in declarations["color"] + background
        for zone in ZONE_CLASSES.values() if uses_zone else [None]:
            variables = {**ROOT, "--zone": zone} if zone else ROOT
            text = parse_colour(resolve(declarations["color"], variables))
            behind = parse_colour(resolve(background, variables))
            if text is None or behind is None:  # a gradient, a translucent or an inherited colour
                continue
            checked += 1
            ratio = contrast(text, behind)
            assert ratio >= AA, f"{', '.join(selectors)} ({zone}): {ratio:.2f}:1"
    assert checked >= 10


# --- The charts ----------------------------------------------------------------------------------


def test_the_charts_text_is_readable():
    layout = figures.TEMPLATE.layout
    for background in (layout.paper_bgcolor, layout.plot_bgcolor):
        assert contrast(parse_colour(layout.font.color), parse_colour(background)) >= AA
    # A hover label is dark text on white, not plotly's white or #444 on the trace's colour
    # (white on the Okabe-Ito green is 3.4:1).
    hover = layout.hoverlabel
    assert contrast(parse_colour(hover.font.color), parse_colour(hover.bgcolor)) >= AA
    # A chart with nothing to draw says so in grey on white.
    empty = figures.facet_stages([])
    note = empty.figure.layout.annotations[0]
    assert contrast(parse_colour(note.font.color), parse_colour(layout.paper_bgcolor)) >= AA
