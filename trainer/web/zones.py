"""The time zones a student may choose in their study settings: the US zones first, by the names a
child knows them by, then every other zone this machine knows, grouped by part of the world (#21)."""

from __future__ import annotations

from functools import cache

from wtforms.fields.choices import SelectChoice

from .memory import known_time_zones

#: The US zones, east to west, with the names people use for them.
US_ZONES: dict[str, str] = {
    "America/New_York": "Eastern (New York)",
    "America/Chicago": "Central (Chicago)",
    "America/Denver": "Mountain (Denver)",
    "America/Phoenix": "Arizona (Phoenix)",
    "America/Los_Angeles": "Pacific (Los Angeles)",
    "America/Anchorage": "Alaska (Anchorage)",
    "Pacific/Honolulu": "Hawaii (Honolulu)",
}
US_GROUP = "US time zones"
#: The parts of the world that name the other zones (``Europe/Paris``); any other zone (``UTC``,
#: ``Etc/GMT+5``, an old alias like ``Cuba``) goes in the group "Other".
REGIONS = (
    "Africa",
    "America",
    "Antarctica",
    "Arctic",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
)
OTHER_GROUP = "Other"
#: The first choice: no zone of their own, so the browser's is used (``memory.settings_for``).
BROWSERS = SelectChoice("", "My browser’s time zone")


def group_of(zone: str) -> str:
    """The ``<optgroup>`` of a zone that is not one of the US zones."""
    region = zone.split("/", 1)[0]
    return region if "/" in zone and region in REGIONS else OTHER_GROUP


@cache
def _choices() -> tuple[SelectChoice, ...]:
    known = known_time_zones()
    us = [SelectChoice(z, label, optgroup=US_GROUP) for z, label in US_ZONES.items() if z in known]
    rest = sorted(known - set(US_ZONES), key=lambda z: (_group_rank(group_of(z)), z))
    return (
        BROWSERS,
        *us,
        *(SelectChoice(z, z.replace("_", " "), optgroup=group_of(z)) for z in rest),
    )


def _group_rank(group: str) -> int:
    return REGIONS.index(group) if group in REGIONS else len(REGIONS)


def zone_choices() -> list[SelectChoice]:
    """The time-zone field's choices: the browser's zone, the US zones, then the rest by region."""
    return list(_choices())
