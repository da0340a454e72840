// The documentation page's "Try it" forms: each sends its request to this
// server and shows the answer (its status and its JSON) below the form.

for (const form of document.querySelectorAll("form.try")) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const method = form.dataset.method;
    const name = form.elements.namedItem("name");
    const path = form.dataset.path.replace("{name}", encodeURIComponent(name ? name.value.trim() : ""));
    const body = form.elements.namedItem("body");
    const shown = form.querySelector("output pre");
    const options = { method };
    if (body) {
      options.headers = { "Content-Type": "application/json" };
      options.body = body.value;
    }
    shown.hidden = false;
    shown.textContent = "Sending…";
    try {
      const response = await fetch(path, options);
      const text = await response.text();
      let pretty = text;
      try {
        pretty = JSON.stringify(JSON.parse(text), null, 2);
      } catch (err) {
        // not JSON: shown as it came
      }
      shown.textContent = `${response.status} ${response.statusText}\n${pretty}`;
    } catch (err) {
      shown.textContent = `The server cannot be reached: ${err.message}`;
    }
  });
}
