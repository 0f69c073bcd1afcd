/* Sending a hand form's fields from the page, and what the server said to it. */

// Resolves to {kind: "saved"} (the server redirected: the hand is in, or was already),
// {kind: "refused", problems, version} (the server answered with the form again), or
// rejects when the server cannot be reached at all.
export function send(action, fields) {
  const body = new URLSearchParams();
  fields.forEach(([name, value]) => { body.append(name, value); });
  return fetch(action, {
    method: "POST",
    body: body,
    credentials: "same-origin",
    redirect: "manual",
    headers: { "Accept": "text/html" }
  }).then((response) => {
    if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
      return { kind: "saved" };
    }
    return response.text().then((html) => refusal(html, response.status));
  });
}

// The server's own words from the page it answered with: the form's errors, each
// field's error with the field's name, else the error page's message.
function refusal(html, code) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const main = doc.querySelector("main") || doc.body;
  const problems = [];
  main.querySelectorAll(".error").forEach((el) => {
    const field = el.closest(".field");
    const name = field && (field.querySelector("legend") || field.querySelector("label"));
    const text = el.textContent.trim();
    problems.push(name ? name.textContent.trim() + ": " + text : text);
  });
  if (!problems.length) {
    const lead = main.querySelector(".lead, .flash");
    problems.push(lead ? lead.textContent.trim() : "HTTP " + code);
  }
  const version = doc.querySelector("form[data-offline-queue] input[name=version], input[name=version]");
  return { kind: "refused", problems: problems, version: version ? version.value : null };
}
