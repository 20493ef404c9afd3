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
      button.textContent = "Copied";
    });
  });
  // Ask before actions that cannot be undone.
  document.querySelectorAll("form[data-confirm]").forEach((form) => {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  });
  // Switch company as soon as one is picked.
  document.querySelectorAll("select[data-autosubmit]").forEach((select) => {
    select.addEventListener("change", () => select.form.requestSubmit());
  });
});
