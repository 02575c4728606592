// Login slips: the "Print" button prints the page (print styles in site.css show only the slips).
document.querySelectorAll("[data-print]").forEach((button) => {
  button.addEventListener("click", () => window.print());
});
