"""A teacher imports a class from the school's OneRoster files, in Chromium on a phone (issue 24):
the files chosen, the preview, the import and its slips; axe and the screen's width on each page."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import check_axe, sign_up_teacher
from tests.test_roster import class_row, enrollment_row, roster_files, user_row

NAMES = [("Ana", "Silva"), ("Bo", "Okafor"), ("Chen", "Nguyen"), ("Dara", "Kowalski")]


def _checked(page, where: str) -> None:
    page.wait_for_load_state("load")  # the stylesheet applied
    check_axe(page, where)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, where


def test_a_teacher_imports_a_class_from_oneroster_files(page, tmp_path):
    page.set_viewport_size({"width": 360, "height": 740})
    users = [user_row(f"stu-{i}", first, last) for i, (first, last) in enumerate(NAMES)]
    users.append(user_row("tch-1", "Pat", "Smith", role="teacher"))
    enrollments = [enrollment_row(f"enr-{i}", "cls-geo", f"stu-{i}") for i in range(len(NAMES))]
    enrollments.append(enrollment_row("enr-x", "cls-geo", "stu-unknown"))
    paths = []
    for name, data in roster_files(
        users, [class_row("cls-geo", "Geography 7A")], enrollments, bom=True
    ).items():
        path = tmp_path / name
        path.write_bytes(data)
        paths.append(path)

    sign_up_teacher(page, "ms_tan")
    page.goto("/teach/")
    page.get_by_role("link", name=re.compile("Import classes from your school")).click()
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text("Import classes from your school's system")
    _checked(page, "the import page")
    page.locator('input[type="file"]').set_input_files(paths)
    page.get_by_role("button", name="Preview the import").click()
    expect(heading).to_have_text("Check the import")
    main = page.locator("main")
    expect(main).to_contain_text("Ana Silva")
    expect(main).to_contain_text("stu-unknown")  # the refused enrollment, named with its reason
    _checked(page, "the preview")
    page.get_by_role("button", name="Import", exact=True).click()
    expect(heading).to_have_text("Imported")
    expect(page.locator(".slip")).to_have_count(len(NAMES))
    _checked(page, "the slips")
    page.goto("/teach/")
    page.get_by_role("link", name="Geography 7A").click()
    expect(page.get_by_role("link", name="Ana Silva (ana.s)")).to_be_visible()
