/* What a hand form holds: its fields as the browser would send them ([name, value]
   pairs), a new idempotency token, and the hand in words in the page's language. */

// The hand forms that keep a hand offline (live.js may swap them for fresh ones).
export function queueForms() {
  return Array.from(document.querySelectorAll("form[data-offline-queue]"));
}

// The form on this page that sends the kept hand ``item``, or null.
export function formFor(item) {
  return queueForms().find((form) => new URL(form.action, location.href).pathname === item.action) || null;
}

// The form's fields, and the button pressed when it says something itself ("Save it
// again" sends confirm=repeat), as a browser sending the form would.
export function fieldsOf(form, submitter) {
  const out = [];
  new FormData(form).forEach((value, name) => { out.push([name, String(value)]); });
  if (submitter && submitter.name) out.push([submitter.name, submitter.value]);
  return out;
}

// The value of the field ``name``, or null.
export function fieldValue(fields, name) {
  const found = fields.find((f) => f[0] === name);
  return found ? found[1] : null;
}

// The fields with ``name`` set to ``value``.
export function withFieldValue(fields, name, value) {
  return fields.map((f) => (f[0] === name ? [name, String(value)] : f));
}

export function newToken() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function labelText(el) {
  const label = el.labels && el.labels[0];
  return label ? label.textContent.trim() : el.name;
}

// A short description of the hand as the player entered it, in the page's language.
export function summaryOf(form) {
  const parts = [];
  const seen = {};
  Array.from(form.elements).forEach((el) => {
    if (!el.name || el.type === "hidden" || el.type === "submit" || el.type === "button") return;
    if (el.type === "radio" || el.type === "checkbox") {
      if (!el.checked) return;
      const set = el.closest("fieldset");
      const legend = set && set.querySelector("legend");
      const choice = el.closest("label") ? el.closest("label").textContent.trim() : el.value;
      if (el.type === "radio" && seen[el.name]) return;
      seen[el.name] = true;
      parts.push((legend ? legend.textContent.trim() + ": " : "") + choice);
    } else if (el.value.trim() !== "") {
      const value = el.tagName === "SELECT" && el.selectedOptions[0] ? el.selectedOptions[0].textContent.trim() : el.value.trim();
      parts.push(labelText(el) + ": " + value);
    }
  });
  return parts.join(" · ");
}

// The kept hand in words: its summary, or (kept by the service worker, which sees no
// page) read from its fields with the labels of this page's form.
export function describe(item) {
  if (item.summary) return item.summary;
  const form = formFor(item);
  const parts = [];
  item.fields.forEach(([name, value]) => {
    if (name === "csrf_token" || name === "version" || name === "token" || value === "") return;
    const el = form && form.querySelector('[name="' + name.replace(/"/g, "") + '"]');
    if (!el) { parts.push(value); return; }
    if (el.type === "radio" || el.type === "checkbox") {
      const chosen = form.querySelector('[name="' + name.replace(/"/g, "") + '"][value="' + value.replace(/"/g, "") + '"]');
      const set = el.closest("fieldset");
      const legend = set && set.querySelector("legend");
      const label = chosen && chosen.closest("label");
      parts.push((legend ? legend.textContent.trim() + ": " : "") + (label ? label.textContent.trim() : value));
    } else {
      parts.push(labelText(el) + ": " + value);
    }
  });
  return parts.join(" · ");
}
