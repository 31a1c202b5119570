// The settings pages' copy buttons: src/http/settings-copy-script.ts.
"use strict";
document.addEventListener("click", (event) => {
  var button = event.target instanceof Element ? event.target.closest("button[data-copy]") : null;
  if (!button) return;
  var source = document.getElementById(button.getAttribute("data-copy"));
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent || "").then(() => {
    button.textContent = button.getAttribute("data-copied") || button.textContent;
  });
});
