#!/usr/bin/env python3
"""Cross-check the GeoPlunge card data in data/ against independent sources.

Stdlib only. Run from the repo root:

    python3 scripts/crosscheck_data.py [--atlas PATH/TO/states-albers-10m.json]

* Internal checks: headers, row counts, ranks recomputed from the values, the
  game-rule acceptance facts, border/power-card format rules.
* Source checks: every column is compared with the independent source tables
  embedded below (transcribed from public material; provenance on each table)
  and, where present, with the system IANA tz database (zoneinfo).
* Optional live checks: if the PyPI package `us` is importable (use a throwaway
  venv, e.g. `python3 -m venv /tmp/chk && /tmp/chk/bin/pip install us`, then run
  this script with /tmp/chk/bin/python) its metadata is compared too; with
  --atlas (from `npm install us-atlas` in a temp dir outside the repo) border
  adjacency is recomputed from shared TopoJSON arcs.

Known, documented source disagreements (see data/README.md) are printed as
"NOTE"; anything else is a FAIL and makes the exit status 1.
"""

import argparse
import collections
import csv
import datetime
import json
import os
import sys
from decimal import ROUND_HALF_UP, Decimal

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "data")
ZONES = ["Eastern", "Central", "Mountain", "Pacific", "Alaska", "Hawaii-Aleutian"]
# January (standard time) UTC offset in hours -> zone name
OFFSET_ZONE = {
    -5: "Eastern",
    -6: "Central",
    -7: "Mountain",
    -8: "Pacific",
    -9: "Alaska",
    -10: "Hawaii-Aleutian",
}

# Source disagreements that were examined and decided (see data/README.md).
KNOWN = {
    (
        "DATES_MACMILLAN",
        "MI",
    ): "Macmillan appendix prints January 16, 1837; the admission act is dated January 26, 1837",
    (
        "DATES_MACMILLAN",
        "WV",
    ): "Macmillan appendix prints June 19, 1863; admission took effect June 20, 1863",
    ("DATES_CSHARP", "AL"): "C# list has 1819-12-19; Alabama was admitted December 14, 1819",
    ("DATES_CSHARP", "NM"): "C# list has 1912-01-26; New Mexico was admitted January 6, 1912",
}

# ---------------------------------------------------------------- sources ---
# Census "Land area in square miles, 2010" (2 decimals) as transcribed in a public GitHub numpy script (search-tool file id 41662037797).
LAND_2DEC = {
    "AK": 570640.95,
    "AL": 50645.33,
    "AR": 52035.48,
    "AZ": 113594.08,
    "CA": 155779.22,
    "CO": 103641.89,
    "CT": 4842.36,
    "DE": 1948.54,
    "FL": 53624.76,
    "GA": 57513.49,
    "HI": 6422.63,
    "IA": 55857.13,
    "ID": 82643.12,
    "IL": 55518.93,
    "IN": 35826.11,
    "KS": 81758.72,
    "KY": 39486.34,
    "LA": 43203.9,
    "MA": 7800.06,
    "MD": 9707.24,
    "ME": 30842.92,
    "MI": 56538.9,
    "MN": 79626.74,
    "MO": 68741.52,
    "MS": 46923.27,
    "MT": 145545.8,
    "NC": 48617.91,
    "ND": 69000.8,
    "NE": 76824.17,
    "NH": 8952.65,
    "NJ": 7354.22,
    "NM": 121298.15,
    "NV": 109781.18,
    "NY": 47126.4,
    "OH": 40860.69,
    "OK": 68594.92,
    "OR": 95988.01,
    "PA": 44742.7,
    "RI": 1033.81,
    "SC": 30060.7,
    "SD": 75811.0,
    "TN": 41234.9,
    "TX": 261231.71,
    "UT": 82169.62,
    "VA": 39490.09,
    "VT": 9216.66,
    "WA": 66455.52,
    "WI": 54157.8,
    "WV": 24038.21,
    "WY": 97093.14,
}

# Census state land area, integer sq mi, public GitHub JS dict LAND_AREA_SQMI (search-tool file id 57796557035).
LAND_INT = {
    "AK": 570641,
    "AL": 50645,
    "AR": 52035,
    "AZ": 113594,
    "CA": 155779,
    "CO": 103642,
    "CT": 4842,
    "DE": 1949,
    "FL": 53625,
    "GA": 57513,
    "HI": 6423,
    "IA": 55857,
    "ID": 82643,
    "IL": 55519,
    "IN": 35826,
    "KS": 81759,
    "KY": 39486,
    "LA": 43204,
    "MA": 7800,
    "MD": 9707,
    "ME": 30843,
    "MI": 56539,
    "MN": 79627,
    "MO": 68742,
    "MS": 46923,
    "MT": 145546,
    "NC": 48618,
    "ND": 69001,
    "NE": 76824,
    "NH": 8953,
    "NJ": 7354,
    "NM": 121298,
    "NV": 109781,
    "NY": 47126,
    "OH": 40861,
    "OK": 68595,
    "OR": 95988,
    "PA": 44743,
    "RI": 1034,
    "SC": 30061,
    "SD": 75811,
    "TN": 41235,
    "TX": 261232,
    "UT": 82170,
    "VA": 39490,
    "VT": 9217,
    "WA": 66456,
    "WI": 54158,
    "WV": 24038,
    "WY": 97093,
}

# Stored excerpts of census.gov "State Area Measurements and Internal Point Coordinates" (2010) and Wikipedia "List of U.S. states and territories by area" (land sq mi; only the rows the excerpts show).
LAND_PAGES = {
    "AK": 570641,
    "AL": 50645,
    "AR": 52035,
    "AZ": 113594,
    "CA": 155779,
    "CO": 103642,
    "CT": 4842,
    "FL": 53625,
    "GA": 57513,
    "ID": 82643,
    "IL": 55519,
    "KS": 81759,
    "MI": 56539,
    "MN": 79627,
    "MO": 68742,
    "MT": 145546,
    "ND": 69001,
    "NE": 76824,
    "NM": 121298,
    "NV": 109781,
    "OK": 68595,
    "OR": 95988,
    "SD": 75811,
    "TX": 261232,
    "UT": 82170,
    "WA": 66456,
    "WI": 54158,
    "WY": 97093,
}

# 2010 Census resident population, SAS certadv.census datalines column Census_Apr2010 (public GitHub, search-tool file id 4076812899).
POP_SAS = {
    "AK": 710231,
    "AL": 4779736,
    "AR": 2915918,
    "AZ": 6392017,
    "CA": 37253956,
    "CO": 5029196,
    "CT": 3574097,
    "DE": 897934,
    "FL": 18801310,
    "GA": 9687653,
    "HI": 1360301,
    "IA": 3046355,
    "ID": 1567582,
    "IL": 12830632,
    "IN": 6483802,
    "KS": 2853118,
    "KY": 4339367,
    "LA": 4533372,
    "MA": 6547629,
    "MD": 5773552,
    "ME": 1328361,
    "MI": 9883640,
    "MN": 5303925,
    "MO": 5988927,
    "MS": 2967297,
    "MT": 989415,
    "NC": 9535483,
    "ND": 672591,
    "NE": 1826341,
    "NH": 1316470,
    "NJ": 8791894,
    "NM": 2059179,
    "NV": 2700551,
    "NY": 19378102,
    "OH": 11536504,
    "OK": 3751351,
    "OR": 3831074,
    "PA": 12702379,
    "RI": 1052567,
    "SC": 4625364,
    "SD": 814180,
    "TN": 6346105,
    "TX": 25145561,
    "UT": 2763885,
    "VA": 8001024,
    "VT": 625741,
    "WA": 6724540,
    "WI": 5686986,
    "WV": 1852994,
    "WY": 563626,
}

# 2010 Census population, public GitHub Kaggle script POPULATION_DATA (search-tool file id 9154132580).
POP_KAGGLE = {
    "AK": 710231,
    "AL": 4779736,
    "AR": 2915918,
    "AZ": 6392017,
    "CA": 37253956,
    "CO": 5029196,
    "CT": 3574097,
    "DE": 897934,
    "FL": 18801310,
    "GA": 9687653,
    "HI": 1360301,
    "IA": 3046355,
    "ID": 1567582,
    "IL": 12830632,
    "IN": 6483802,
    "KS": 2853118,
    "KY": 4339367,
    "LA": 4533372,
    "MA": 6547629,
    "MD": 5773552,
    "ME": 1328361,
    "MI": 9883640,
    "MN": 5303925,
    "MO": 5988927,
    "MS": 2967297,
    "MT": 989415,
    "NC": 9535483,
    "ND": 672591,
    "NE": 1826341,
    "NH": 1316470,
    "NJ": 8791894,
    "NM": 2059179,
    "NV": 2700551,
    "NY": 19378102,
    "OH": 11536504,
    "OK": 3751351,
    "OR": 3831074,
    "PA": 12702379,
    "RI": 1052567,
    "SC": 4625364,
    "SD": 814180,
    "TN": 6346105,
    "TX": 25145561,
    "UT": 2763885,
    "VA": 8001024,
    "VT": 625741,
    "WA": 6724540,
    "WI": 5686986,
    "WV": 1852994,
    "WY": 563626,
}

# Census Bureau 2010 apportionment release figures as quoted on stored pages (proximityone.com, americancityandcounty.com, ehow.com, dimensionsguide.com, followexperts.online).
POP_PAGES = {
    "AK": 710231,
    "CA": 37253956,
    "CT": 3574097,
    "DE": 897934,
    "HI": 1360301,
    "MT": 989415,
    "ND": 672591,
    "NV": 2700551,
    "SD": 814180,
    "TX": 25145561,
    "VT": 625741,
    "WY": 563626,
}

# Top-25 2010 Census populations from a public GitHub JS file (search-tool file id 61938671499); its own rank numbers are NOT used (they misorder AZ/MA/IN).
POP_JS_TOP25 = {
    "AL": 4779736,
    "AZ": 6392017,
    "CA": 37253956,
    "CO": 5029196,
    "FL": 18801310,
    "GA": 9687653,
    "IL": 12830632,
    "IN": 6483802,
    "LA": 4533372,
    "MA": 6547629,
    "MD": 5773552,
    "MI": 9883640,
    "MN": 5303925,
    "MO": 5988927,
    "NC": 9535483,
    "NJ": 8791894,
    "NY": 19378102,
    "OH": 11536504,
    "PA": 12702379,
    "SC": 4625364,
    "TN": 6346105,
    "TX": 25145561,
    "VA": 8001024,
    "WA": 6724540,
    "WI": 5686986,
}

# Roark et al., The American Promise 7e, Appendix "Admission of States to the Union" (stored page digfir-published.macmillanusa.com/roark7e/roark7e_app1_6.html).
DATES_MACMILLAN = {
    "AK": "1959-01-03",
    "AL": "1819-12-14",
    "AR": "1836-06-15",
    "AZ": "1912-02-14",
    "CA": "1850-09-09",
    "CO": "1876-08-01",
    "CT": "1788-01-09",
    "DE": "1787-12-07",
    "FL": "1845-03-03",
    "GA": "1788-01-02",
    "HI": "1959-08-21",
    "IA": "1846-12-28",
    "ID": "1890-07-03",
    "IL": "1818-12-03",
    "IN": "1816-12-11",
    "KS": "1861-01-29",
    "KY": "1792-06-01",
    "LA": "1812-04-30",
    "MA": "1788-02-06",
    "MD": "1788-04-28",
    "ME": "1820-03-15",
    "MI": "1837-01-16",
    "MN": "1858-05-11",
    "MO": "1821-08-10",
    "MS": "1817-12-10",
    "MT": "1889-11-08",
    "NC": "1789-11-21",
    "ND": "1889-11-02",
    "NE": "1867-03-01",
    "NH": "1788-06-21",
    "NJ": "1787-12-18",
    "NM": "1912-01-06",
    "NV": "1864-10-31",
    "NY": "1788-07-26",
    "OH": "1803-03-01",
    "OK": "1907-11-16",
    "OR": "1859-02-14",
    "PA": "1787-12-12",
    "RI": "1790-05-29",
    "SC": "1788-05-23",
    "SD": "1889-11-02",
    "TN": "1796-06-01",
    "TX": "1845-12-29",
    "UT": "1896-01-04",
    "VA": "1788-06-25",
    "VT": "1791-03-04",
    "WA": "1889-11-11",
    "WI": "1848-05-29",
    "WV": "1863-06-19",
    "WY": "1890-07-10",
}

# Public GitHub TypeScript `states` array foundedOn (search-tool file id 54597583372).
DATES_TS = {
    "AK": "1959-01-03",
    "AL": "1819-12-14",
    "AR": "1836-06-15",
    "AZ": "1912-02-14",
    "CA": "1850-09-09",
    "CO": "1876-08-01",
    "CT": "1788-01-09",
    "DE": "1787-12-07",
    "FL": "1845-03-03",
    "GA": "1788-01-02",
    "HI": "1959-08-21",
    "IA": "1846-12-28",
    "ID": "1890-07-03",
    "IL": "1818-12-03",
    "IN": "1816-12-11",
    "KS": "1861-01-29",
    "KY": "1792-06-01",
    "LA": "1812-04-30",
    "MA": "1788-02-06",
    "MD": "1788-04-28",
    "ME": "1820-03-15",
    "MI": "1837-01-26",
    "MN": "1858-05-11",
    "MO": "1821-08-10",
    "MS": "1817-12-10",
    "MT": "1889-11-08",
    "NC": "1789-11-21",
    "ND": "1889-11-02",
    "NE": "1867-03-01",
    "NH": "1788-06-21",
    "NJ": "1787-12-18",
    "NM": "1912-01-06",
    "NV": "1864-10-31",
    "NY": "1788-07-26",
    "OH": "1803-03-01",
    "OK": "1907-11-16",
    "OR": "1859-02-14",
    "PA": "1787-12-12",
    "RI": "1790-05-29",
    "SC": "1788-05-23",
    "SD": "1889-11-02",
    "TN": "1796-06-01",
    "TX": "1845-12-29",
    "UT": "1896-01-04",
    "VA": "1788-06-25",
    "VT": "1791-03-04",
    "WA": "1889-11-11",
    "WI": "1848-05-29",
    "WV": "1863-06-20",
    "WY": "1890-07-10",
}

# Public GitHub C# StateRows Admitted (search-tool file id 20179508377).
DATES_CSHARP = {
    "AK": "1959-01-03",
    "AL": "1819-12-19",
    "AR": "1836-06-15",
    "AZ": "1912-02-14",
    "CA": "1850-09-09",
    "CO": "1876-08-01",
    "CT": "1788-01-09",
    "DE": "1787-12-07",
    "FL": "1845-03-03",
    "GA": "1788-01-02",
    "HI": "1959-08-21",
    "IA": "1846-12-28",
    "ID": "1890-07-03",
    "IL": "1818-12-03",
    "IN": "1816-12-11",
    "KS": "1861-01-29",
    "KY": "1792-06-01",
    "LA": "1812-04-30",
    "MA": "1788-02-06",
    "MD": "1788-04-28",
    "ME": "1820-03-15",
    "MI": "1837-01-26",
    "MN": "1858-05-11",
    "MO": "1821-08-10",
    "MS": "1817-12-10",
    "MT": "1889-11-08",
    "NC": "1789-11-21",
    "ND": "1889-11-02",
    "NE": "1867-03-01",
    "NH": "1788-06-21",
    "NJ": "1787-12-18",
    "NM": "1912-01-26",
    "NV": "1864-10-31",
    "NY": "1788-07-26",
    "OH": "1803-03-01",
    "OK": "1907-11-16",
    "OR": "1859-02-14",
    "PA": "1787-12-12",
    "RI": "1790-05-29",
    "SC": "1788-05-23",
    "SD": "1889-11-02",
    "TN": "1796-06-01",
    "TX": "1845-12-29",
    "UT": "1896-01-04",
    "VA": "1788-06-25",
    "VT": "1791-03-04",
    "WA": "1889-11-11",
    "WI": "1848-05-29",
    "WV": "1863-06-20",
    "WY": "1890-07-10",
}

# Capitals from the same TypeScript file (search-tool file id 54597583372).
CAPITAL_TS = {
    "AK": "Juneau",
    "AL": "Montgomery",
    "AR": "Little Rock",
    "AZ": "Phoenix",
    "CA": "Sacramento",
    "CO": "Denver",
    "CT": "Hartford",
    "DE": "Dover",
    "FL": "Tallahassee",
    "GA": "Atlanta",
    "HI": "Honolulu",
    "IA": "Des Moines",
    "ID": "Boise",
    "IL": "Springfield",
    "IN": "Indianapolis",
    "KS": "Topeka",
    "KY": "Frankfort",
    "LA": "Baton Rouge",
    "MA": "Boston",
    "MD": "Annapolis",
    "ME": "Augusta",
    "MI": "Lansing",
    "MN": "Saint Paul",
    "MO": "Jefferson City",
    "MS": "Jackson",
    "MT": "Helena",
    "NC": "Raleigh",
    "ND": "Bismarck",
    "NE": "Lincoln",
    "NH": "Concord",
    "NJ": "Trenton",
    "NM": "Santa Fe",
    "NV": "Carson City",
    "NY": "Albany",
    "OH": "Columbus",
    "OK": "Oklahoma City",
    "OR": "Salem",
    "PA": "Harrisburg",
    "RI": "Providence",
    "SC": "Columbia",
    "SD": "Pierre",
    "TN": "Nashville",
    "TX": "Austin",
    "UT": "Salt Lake City",
    "VA": "Richmond",
    "VT": "Montpelier",
    "WA": "Olympia",
    "WI": "Madison",
    "WV": "Charleston",
    "WY": "Cheyenne",
}

# npm package typed-usa-states 2.1.0, dist/states.js `capital`.
CAPITAL_TYPED_USA_STATES = {
    "AK": "Juneau",
    "AL": "Montgomery",
    "AR": "Little Rock",
    "AZ": "Phoenix",
    "CA": "Sacramento",
    "CO": "Denver",
    "CT": "Hartford",
    "DE": "Dover",
    "FL": "Tallahassee",
    "GA": "Atlanta",
    "HI": "Honolulu",
    "IA": "Des Moines",
    "ID": "Boise",
    "IL": "Springfield",
    "IN": "Indianapolis",
    "KS": "Topeka",
    "KY": "Frankfort",
    "LA": "Baton Rouge",
    "MA": "Boston",
    "MD": "Annapolis",
    "ME": "Augusta",
    "MI": "Lansing",
    "MN": "Saint Paul",
    "MO": "Jefferson City",
    "MS": "Jackson",
    "MT": "Helena",
    "NC": "Raleigh",
    "ND": "Bismarck",
    "NE": "Lincoln",
    "NH": "Concord",
    "NJ": "Trenton",
    "NM": "Santa Fe",
    "NV": "Carson City",
    "NY": "Albany",
    "OH": "Columbus",
    "OK": "Oklahoma City",
    "OR": "Salem",
    "PA": "Harrisburg",
    "RI": "Providence",
    "SC": "Columbia",
    "SD": "Pierre",
    "TN": "Nashville",
    "TX": "Austin",
    "UT": "Salt Lake City",
    "VA": "Richmond",
    "VT": "Montpelier",
    "WA": "Olympia",
    "WI": "Madison",
    "WV": "Charleston",
    "WY": "Cheyenne",
}

# GitHub ubikuity/List-of-neighboring-states-for-each-US-state neighbors-states.csv (commit 3d8d768b), verbatim.
NEIGHBORS_UBIKUITY = [
    tuple(p.split("-"))
    for p in [
        "AK-WA",
        "AL-FL",
        "AL-GA",
        "AL-MS",
        "AL-TN",
        "AR-LA",
        "AR-MO",
        "AR-MS",
        "AR-OK",
        "AR-TN",
        "AR-TX",
        "AZ-CA",
        "AZ-CO",
        "AZ-NM",
        "AZ-NV",
        "AZ-UT",
        "CA-HI",
        "CA-NV",
        "CA-OR",
        "CO-KS",
        "CO-NE",
        "CO-NM",
        "CO-OK",
        "CO-UT",
        "CO-WY",
        "CT-MA",
        "CT-NY",
        "CT-RI",
        "DC-MD",
        "DC-VA",
        "DE-MD",
        "DE-NJ",
        "DE-PA",
        "FL-GA",
        "GA-NC",
        "GA-SC",
        "GA-TN",
        "IA-IL",
        "IA-MN",
        "IA-MO",
        "IA-NE",
        "IA-SD",
        "IA-WI",
        "ID-MT",
        "ID-NV",
        "ID-OR",
        "ID-UT",
        "ID-WA",
        "ID-WY",
        "IL-IN",
        "IL-KY",
        "IL-MO",
        "IL-WI",
        "IN-KY",
        "IN-MI",
        "IN-OH",
        "KS-MO",
        "KS-NE",
        "KS-OK",
        "KY-MO",
        "KY-OH",
        "KY-TN",
        "KY-VA",
        "KY-WV",
        "LA-MS",
        "LA-TX",
        "MA-NH",
        "MA-NY",
        "MA-RI",
        "MA-VT",
        "MD-PA",
        "MD-VA",
        "MD-WV",
        "ME-NH",
        "MI-OH",
        "MI-WI",
        "MN-ND",
        "MN-SD",
        "MN-WI",
        "MO-NE",
        "MO-OK",
        "MO-TN",
        "MS-TN",
        "MT-ND",
        "MT-SD",
        "MT-WY",
        "NC-SC",
        "NC-TN",
        "NC-VA",
        "ND-SD",
        "NE-SD",
        "NE-WY",
        "NH-VT",
        "NJ-NY",
        "NJ-PA",
        "NM-OK",
        "NM-TX",
        "NM-UT",
        "NV-OR",
        "NV-UT",
        "NY-PA",
        "NY-VT",
        "OH-PA",
        "OH-WV",
        "OK-TX",
        "OR-WA",
        "PA-WV",
        "SD-WY",
        "TN-VA",
        "UT-WY",
        "VA-WV",
    ]
]

# PyPI package `us` 4.0.0, us.states.STATES[*].time_zones (IANA names), transcribed so the check runs without it.
US_PKG_TIME_ZONES = {
    "AK": "America/Anchorage America/Adak",
    "AL": "America/Chicago",
    "AR": "America/Chicago",
    "AZ": "America/Phoenix",
    "CA": "America/Los_Angeles",
    "CO": "America/Denver",
    "CT": "America/New_York",
    "DE": "America/New_York",
    "FL": "America/New_York America/Chicago",
    "GA": "America/New_York",
    "HI": "Pacific/Honolulu",
    "IA": "America/Chicago",
    "ID": "America/Denver America/Los_Angeles",
    "IL": "America/Chicago",
    "IN": "America/Chicago America/Indiana/Indianapolis America/Indianapolis America/Indiana/Winamac America/Indiana/Vincennes America/Indiana/Vevay America/Indiana/Tell_City America/Indiana/Petersburg America/Indiana/Marengo America/Indiana/Knox America/Knox_IN America/New_York",
    "KS": "America/Chicago America/Denver",
    "KY": "America/Chicago America/New_York America/Kentucky/Louisville America/Kentucky/Monticello",
    "LA": "America/Chicago",
    "MA": "America/New_York",
    "MD": "America/New_York",
    "ME": "America/New_York",
    "MI": "America/New_York America/Chicago",
    "MN": "America/Chicago",
    "MO": "America/Chicago",
    "MS": "America/Chicago",
    "MT": "America/Denver",
    "NC": "America/New_York",
    "ND": "America/Chicago America/Denver America/North_Dakota/Beulah America/North_Dakota/Center America/North_Dakota/New_Salem",
    "NE": "America/Chicago America/Denver",
    "NH": "America/New_York",
    "NJ": "America/New_York",
    "NM": "America/Denver",
    "NV": "America/Los_Angeles America/Denver",
    "NY": "America/New_York",
    "OH": "America/New_York",
    "OK": "America/Chicago",
    "OR": "America/Los_Angeles America/Boise",
    "PA": "America/New_York",
    "RI": "America/New_York",
    "SC": "America/New_York",
    "SD": "America/Chicago America/Denver",
    "TN": "America/Chicago America/New_York",
    "TX": "America/Chicago America/Denver",
    "UT": "America/Denver",
    "VA": "America/New_York",
    "VT": "America/New_York",
    "WA": "America/Los_Angeles",
    "WI": "America/Chicago",
    "WV": "America/New_York",
    "WY": "America/Denver",
}

# PyPI package `us` 4.0.0 statehood_year, transcribed.
US_PKG_STATEHOOD_YEAR = {
    "AK": 1959,
    "AL": 1819,
    "AR": 1836,
    "AZ": 1912,
    "CA": 1850,
    "CO": 1876,
    "CT": 1788,
    "DE": 1787,
    "FL": 1845,
    "GA": 1788,
    "HI": 1959,
    "IA": 1846,
    "ID": 1890,
    "IL": 1818,
    "IN": 1816,
    "KS": 1861,
    "KY": 1792,
    "LA": 1812,
    "MA": 1788,
    "MD": 1788,
    "ME": 1820,
    "MI": 1837,
    "MN": 1858,
    "MO": 1821,
    "MS": 1817,
    "MT": 1889,
    "NC": 1789,
    "ND": 1889,
    "NE": 1867,
    "NH": 1788,
    "NJ": 1787,
    "NM": 1912,
    "NV": 1864,
    "NY": 1788,
    "OH": 1803,
    "OK": 1907,
    "OR": 1859,
    "PA": 1787,
    "RI": 1790,
    "SC": 1788,
    "SD": 1889,
    "TN": 1796,
    "TX": 1845,
    "UT": 1896,
    "VA": 1788,
    "VT": 1791,
    "WA": 1889,
    "WI": 1848,
    "WV": 1863,
    "WY": 1890,
}

# PyPI package `us` 4.0.0 capital, transcribed.
US_PKG_CAPITAL = {
    "AK": "Juneau",
    "AL": "Montgomery",
    "AR": "Little Rock",
    "AZ": "Phoenix",
    "CA": "Sacramento",
    "CO": "Denver",
    "CT": "Hartford",
    "DE": "Dover",
    "FL": "Tallahassee",
    "GA": "Atlanta",
    "HI": "Honolulu",
    "IA": "Des Moines",
    "ID": "Boise",
    "IL": "Springfield",
    "IN": "Indianapolis",
    "KS": "Topeka",
    "KY": "Frankfort",
    "LA": "Baton Rouge",
    "MA": "Boston",
    "MD": "Annapolis",
    "ME": "Augusta",
    "MI": "Lansing",
    "MN": "Saint Paul",
    "MO": "Jefferson City",
    "MS": "Jackson",
    "MT": "Helena",
    "NC": "Raleigh",
    "ND": "Bismarck",
    "NE": "Lincoln",
    "NH": "Concord",
    "NJ": "Trenton",
    "NM": "Santa Fe",
    "NV": "Carson City",
    "NY": "Albany",
    "OH": "Columbus",
    "OK": "Oklahoma City",
    "OR": "Salem",
    "PA": "Harrisburg",
    "RI": "Providence",
    "SC": "Columbia",
    "SD": "Pierre",
    "TN": "Nashville",
    "TX": "Austin",
    "UT": "Salt Lake City",
    "VA": "Richmond",
    "VT": "Montpelier",
    "WA": "Olympia",
    "WI": "Madison",
    "WV": "Charleston",
    "WY": "Cheyenne",
}

# States officially split between two zones (stored page quanswer.com "Which are the US states divided
# by time zones", also eatsip365.com): 14 states. about.com / thoughtco.com list 13 (they omit Nevada,
# whose city of West Wendover was moved to Mountain time by DOT final rule 64 FR 56705, 1999).
SPLIT_STATES_14 = set(
    ["AK", "FL", "ID", "IN", "KS", "KY", "MI", "NE", "NV", "ND", "OR", "SD", "TN", "TX"]
)

# --------------------------------------------------------------- machinery ---
fails = []
notes = []
tally = collections.Counter()


def check(ok, msg, key=None):
    if ok:
        tally["agree"] += 1
        return
    if key in KNOWN:
        tally["known"] += 1
        notes.append(f"NOTE {msg} -- {KNOWN[key]}")
    else:
        tally["disagree"] += 1
        fails.append(f"FAIL {msg}")


def read_csv(name):
    with open(os.path.join(DATA, name), newline="") as f:
        r = csv.reader(f)
        header = next(r)
        return header, [dict(zip(header, row)) for row in r]


def half_up(x):
    return int(Decimal(str(x)).quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def compare(label, source, ours, conv=lambda v: v):
    n = 0
    for k, v in sorted(source.items()):
        if k not in ours:
            continue
        n += 1
        check(conv(v) == ours[k], f"{label}[{k}] = {conv(v)!r}, data has {ours[k]!r}", (label, k))
    return n


# ----------------------------------------------------------------- states ---
def check_states():
    header, rows = read_csv("states.csv")
    want = [
        "name",
        "postal",
        "capital",
        "land_area_sq_mi",
        "size_rank",
        "statehood_date",
        "statehood_rank",
        "population_2010",
        "population_rank",
        "time_zone",
        "secondary_zones",
    ]
    check(header == want, f"states.csv header {header}")
    check(len(rows) == 50, f"states.csv has {len(rows)} rows")
    check(
        [r["name"] for r in rows] == sorted(r["name"] for r in rows),
        "states.csv not sorted by name",
    )
    S = {r["postal"]: r for r in rows}
    land = {p: int(r["land_area_sq_mi"]) for p, r in S.items()}
    pop = {p: int(r["population_2010"]) for p, r in S.items()}
    date = {p: r["statehood_date"] for p, r in S.items()}
    for p in S:
        datetime.date.fromisoformat(date[p])
        check(S[p]["time_zone"] in ZONES, f"{p} time_zone {S[p]['time_zone']!r}")
        sec = [z for z in S[p]["secondary_zones"].split(";") if z]
        check(all(z in ZONES and z != S[p]["time_zone"] for z in sec), f"{p} secondary_zones {sec}")

    # ranks recomputed from the values
    def by(d):
        return {p: i + 1 for i, p in enumerate(sorted(d, key=lambda q: -d[q]))}

    st = {p: i + 1 for i, p in enumerate(sorted(S, key=lambda q: (date[q], S[q]["name"])))}
    for col, ranks in (
        ("size_rank", by(land)),
        ("population_rank", by(pop)),
        ("statehood_rank", st),
    ):
        for p in S:
            check(int(S[p][col]) == ranks[p], f"{p} {col} {S[p][col]} != recomputed {ranks[p]}")
    check(
        len(set(land.values())) == 50 and len(set(pop.values())) == 50,
        "tied land areas or populations",
    )

    # acceptance facts from the game rules
    def R(p, c):
        return int(S[p][c])

    def best(p):
        return min((R(p, c), c) for c in ("size_rank", "statehood_rank", "population_rank"))

    facts = [
        (
            (R("CA", "size_rank"), R("CA", "statehood_rank"), R("CA", "population_rank"))
            == (3, 31, 1),
            "California 3/31/1",
        ),
        (best("MD") == (7, "statehood_rank"), "Maryland best = statehood 7"),
        (best("CO") == (8, "size_rank"), "Colorado best = size 8"),
        (R("MT", "size_rank") == 4, "Montana size 4"),
        (R("WA", "size_rank") == 20, "Washington size 20"),
        (R("NY", "population_rank") == 3, "New York population 3"),
        (
            all(
                R("GA", c) < R("ME", c) for c in ("size_rank", "statehood_rank", "population_rank")
            ),
            "Georgia beats Maine x3",
        ),
        (R("AK", "size_rank") == 1, "Alaska size 1"),
        (R("DE", "statehood_rank") == 1, "Delaware statehood 1"),
        (
            R("TX", "population_rank") == 2 and R("WY", "population_rank") == 50,
            "Texas pop 2, Wyoming pop 50",
        ),
        (
            R("RI", "size_rank") == 50 and R("TX", "size_rank") == 2,
            "Rhode Island size 50, Texas size 2",
        ),
        (
            (R("ND", "statehood_rank"), R("SD", "statehood_rank"), R("HI", "statehood_rank"))
            == (39, 40, 50),
            "ND 39, SD 40, HI 50",
        ),
    ]
    for ok, msg in facts:
        check(ok, f"acceptance fact: {msg}")

    # land area
    n = compare("LAND_2DEC", LAND_2DEC, land, half_up)
    n += compare("LAND_INT", LAND_INT, land)
    n += compare("LAND_PAGES", LAND_PAGES, land)
    print(f"land area: {n} comparisons against 3 sources")
    # population
    n = compare("POP_SAS", POP_SAS, pop) + compare("POP_KAGGLE", POP_KAGGLE, pop)
    n += compare("POP_PAGES", POP_PAGES, pop) + compare("POP_JS_TOP25", POP_JS_TOP25, pop)
    print(f"population: {n} comparisons against 4 sources")
    # statehood
    n = compare("DATES_MACMILLAN", DATES_MACMILLAN, date) + compare("DATES_TS", DATES_TS, date)
    n += compare("DATES_CSHARP", DATES_CSHARP, date)
    n += compare(
        "US_PKG_STATEHOOD_YEAR", US_PKG_STATEHOOD_YEAR, {p: int(d[:4]) for p, d in date.items()}
    )
    print(f"statehood: {n} comparisons against 4 sources")
    # capitals
    cap = {p: r["capital"] for p, r in S.items()}
    n = compare("CAPITAL_TS", CAPITAL_TS, cap) + compare(
        "CAPITAL_TYPED_USA_STATES", CAPITAL_TYPED_USA_STATES, cap
    )
    n += compare("US_PKG_CAPITAL", US_PKG_CAPITAL, cap)
    print(f"capitals: {n} comparisons against 3 sources")
    # names/postal vs us package
    # time zones: the set {primary} + secondary must equal the zones of the state's IANA zones
    zones = {
        p: {S[p]["time_zone"], *[z for z in S[p]["secondary_zones"].split(";") if z]} for p in S
    }
    try:
        from zoneinfo import ZoneInfo

        jan = datetime.datetime(2010, 1, 15, 12)

        def iana_zone(z):
            return OFFSET_ZONE[int(ZoneInfo(z).utcoffset(jan).total_seconds() // 3600)]

        derived = {p: {iana_zone(z) for z in US_PKG_TIME_ZONES[p].split()} for p in S}
        n = compare("US_PKG_TIME_ZONES(+zoneinfo offsets)", derived, zones)
        print(
            f"time zones: {n} comparisons of zone sets (us package IANA names -> tzdata January offsets)"
        )
    except Exception as e:  # zoneinfo/tzdata missing
        print(f"time zones: zoneinfo unavailable ({e}); skipped IANA offset check")
    split = {p for p in S if S[p]["secondary_zones"]}
    check(
        split == SPLIT_STATES_14,
        f"split-zone states differ from 14-state list: {sorted(split ^ SPLIT_STATES_14)}",
    )
    # primary zone must be one of the state's zones and, per README, is the zone of the majority of residents
    return S


def check_live_us(S):
    try:
        import us
    except ImportError:
        print(
            "live `us` package: not importable here, skipped (embedded transcription used instead)"
        )
        return
    live = {s.abbr: s for s in us.states.STATES}
    check(set(live) == set(S), "postal codes differ from us.states.STATES")
    for p, s in live.items():
        check(s.name == S[p]["name"], f"us name {s.name!r} vs {S[p]['name']!r}")
        check(s.capital == S[p]["capital"], f"us capital[{p}] {s.capital!r} vs {S[p]['capital']!r}")
        check(s.statehood_year == int(S[p]["statehood_date"][:4]), f"us statehood_year[{p}]")
        check(
            " ".join(s.time_zones) == US_PKG_TIME_ZONES[p],
            f"us time_zones[{p}] changed since transcription",
        )
    print(f"live `us` {getattr(us, '__version__', '?')}: {4 * len(live) + 1} comparisons")


# ---------------------------------------------------------------- borders ---
def check_borders(S, atlas_path):
    header, rows = read_csv("borders.csv")
    check(header == ["state_a", "state_b"], f"borders.csv header {header}")
    pairs = [(r["state_a"], r["state_b"]) for r in rows]
    check(pairs == sorted(set(pairs)), "borders.csv not sorted/unique")
    check(all(a < b and a in S and b in S for a, b in pairs), "borders.csv bad pair")
    mine = set(pairs)
    check(not any({"AK", "HI"} & set(p) for p in mine), "Alaska/Hawaii must border none")
    for bad in [("AZ", "CO"), ("NM", "UT"), ("IL", "MI"), ("MI", "MN"), ("NY", "RI")]:
        check(bad not in mine, f"{bad} must not be a border")
    for good in [("MI", "WI"), ("MD", "VA"), ("DE", "NJ")]:
        check(good in mine, f"{good} must be a border")
    # ubikuity list, minus its documented non-land entries
    ub = {tuple(sorted(p)) for p in NEIGHBORS_UBIKUITY}
    excluded = {("AK", "WA"), ("CA", "HI"), ("AZ", "CO"), ("NM", "UT")}
    ub_states = {p for p in ub if "DC" not in p}
    check(
        ub_states - excluded == mine, f"ubikuity differs: {sorted((ub_states - excluded) ^ mine)}"
    )
    print(
        f"borders: {len(mine)} pairs; ubikuity list has {len(ub_states)} state pairs, "
        f"{len(ub_states & mine)} agree, excluded as non-land: {sorted(ub_states & excluded)}"
    )
    if not atlas_path:
        print("borders: --atlas not given, us-atlas geometry check skipped")
        return
    with open(atlas_path) as atlas:
        topo = json.load(atlas)
    fips = {}
    for line in US_FIPS.split():
        f, p = line.split(":")
        fips[f] = p
    usage = collections.defaultdict(set)
    for g in topo["objects"]["states"]["geometries"]:

        def walk(x, state_id=g["id"]):
            if isinstance(x, int):
                usage[x if x >= 0 else ~x].add(state_id)
            else:
                for y in x:
                    walk(y, state_id)

        walk(g["arcs"])
    atlas = set()
    for ids in usage.values():
        if len(ids) == 2:
            a, b = sorted(ids)
            if "11" in (a, b):  # District of Columbia
                continue
            atlas.add(tuple(sorted((fips[a], fips[b]))))
    check(
        atlas == mine,
        f"us-atlas shared-arc adjacency differs: only atlas {sorted(atlas - mine)}, only csv {sorted(mine - atlas)}",
    )
    print(
        f"borders: us-atlas shared-arc pairs (DC ignored) = {len(atlas)}, agree {len(atlas & mine)}"
    )


US_FIPS = """01:AL 02:AK 04:AZ 05:AR 06:CA 08:CO 09:CT 10:DE 12:FL 13:GA 15:HI 16:ID 17:IL 18:IN 19:IA
20:KS 21:KY 22:LA 23:ME 24:MD 25:MA 26:MI 27:MN 28:MS 29:MO 30:MT 31:NE 32:NV 33:NH 34:NJ 35:NM 36:NY
37:NC 38:ND 39:OH 40:OK 41:OR 42:PA 44:RI 45:SC 46:SD 47:TN 48:TX 49:UT 50:VT 51:VA 53:WA 54:WV 55:WI 56:WY"""


# ------------------------------------------------------------ power cards ---
def check_cards():
    header, rows = read_csv("power_cards.csv")
    check(header == ["id", "category", "clue_code"], f"power_cards.csv header {header}")
    check([int(r["id"]) for r in rows] == list(range(1, 16)), "power card ids not 1..15")
    by_cat = collections.defaultdict(list)
    for r in rows:
        by_cat[r["category"]].append(r["clue_code"])
    check(sorted(by_cat) == ["Population", "Size", "Statehood"], f"categories {sorted(by_cat)}")
    check(
        all(len(v) == 5 and len(set(v)) == 5 for v in by_cat.values()),
        "each category needs 5 distinct codes",
    )
    codes = collections.Counter(r["clue_code"] for r in rows)
    perms = ["ABC", "ACB", "BAC", "BCA", "CAB", "CBA"]
    check(
        codes == collections.Counter(perms * 2 + ["AAA", "BBB", "CCC"]),
        f"code multiset {dict(codes)}",
    )
    triples = [c for v in by_cat.values() for c in v if c in ("AAA", "BBB", "CCC")]
    check(
        all(sum(t in v for t in ("AAA", "BBB", "CCC")) == 1 for v in by_cat.values()),
        "one triple per category",
    )
    print(f"power cards: {len(rows)} cards, {dict(sorted(codes.items()))}, triples {triples}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--atlas", help="path to us-atlas states-albers-10m.json (or states-10m.json)")
    args = ap.parse_args()
    S = check_states()
    check_live_us(S)
    check_borders(S, args.atlas)
    check_cards()
    for line in notes + fails:
        print(line)
    print(
        f"{tally['agree']} agreements, {tally['known']} known/decided disagreements, {tally['disagree']} unexpected"
    )
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
