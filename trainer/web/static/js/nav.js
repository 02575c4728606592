// The Menu button of the site header (templates/base.html). On a phone the site's links and the
// account sit behind it; the stylesheet shows them while the button's aria-expanded is "true".
// Escape closes the menu and puts the focus back on the button; a click or the focus going
// elsewhere closes it too. With no JavaScript the stylesheet shows the links and no button.
(function () {
  "use strict";
  var button = document.querySelector(".menu-toggle[aria-controls]");
  if (!button) return;
  var menu = document.getElementById(button.getAttribute("aria-controls"));
  if (!menu) return;

  function isOpen() {
    return button.getAttribute("aria-expanded") === "true";
  }

  function setOpen(open) {
    button.setAttribute("aria-expanded", open ? "true" : "false");
  }

  function inside(node) {
    return !!node && (menu.contains(node) || button.contains(node));
  }

  button.addEventListener("click", function () {
    setOpen(!isOpen());
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !isOpen()) return;
    setOpen(false);
    button.focus();
  });

  document.addEventListener("click", function (event) {
    if (isOpen() && !inside(event.target)) setOpen(false);
  });

  // Tabbing out of the open menu (past its last link, or back before the button) closes it. Only
  // the keyboard's moves: a tap or a click elsewhere moves the focus on pointer down, and closing
  // the menu then would shift the page under the pointer before the click lands (the click
  // handler above closes it after).
  var byKeyboard = false;
  document.addEventListener("keydown", function () { byKeyboard = true; }, true);
  document.addEventListener("pointerdown", function () { byKeyboard = false; }, true);
  function closeIfTabbedOut(event) {
    if (byKeyboard && isOpen() && event.relatedTarget && !inside(event.relatedTarget)) {
      setOpen(false);
    }
  }
  menu.addEventListener("focusout", closeIfTabbedOut);
  button.addEventListener("focusout", closeIfTabbedOut);
})();
