// The console works without this file; it only adds conveniences.
document.addEventListener("DOMContentLoaded", () => {
  // Copy a shown-once API key.
  document.querySelectorAll("[data-copy]").forEach((button) => {
    button.addEventListener("click", async () => {
      const field = document.querySelector(button.dataset.copy);
      field.select();
      try {
        await navigator.clipboard.writeText(field.value);
      } catch {
        document.execCommand("copy");  // older browsers, or no clipboard permission
      }
      button.textContent = button.dataset.copied;  // the page's language (the template says it)
    });
  });
  // Ask before actions that cannot be undone.
  document.querySelectorAll("form[data-confirm]").forEach((form) => {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  });
  // On a phone a table's rows become cards (console.css): each cell is labelled with
  // its column's heading, so no column is hidden past the right edge.
  document.querySelectorAll(".scroll table").forEach((table) => {
    const headings = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
    table.querySelectorAll("tbody tr").forEach((row) => {
      [...row.children].forEach((cell, index) => {
        if (headings[index]) cell.dataset.label = headings[index];
      });
    });
    table.classList.add("stackable");
  });
  // On a phone the tabs scroll sideways, from the right on an Arabic page: bring the
  // current one into view, centred in the strip.
  const current = document.querySelector("nav.tabs [aria-current=page]");
  if (current) {
    const tab = current.getBoundingClientRect();
    const strip = current.parentElement.getBoundingClientRect();
    if (tab.left < strip.left || tab.right > strip.right) {
      current.parentElement.scrollBy({left: (tab.left + tab.right - strip.left - strip.right) / 2});
    }
  }
  // Switch company as soon as one is picked.
  document.querySelectorAll("select[data-autosubmit]").forEach((select) => {
    select.addEventListener("change", () => select.form.requestSubmit());
  });
});
