// ESLint (`make lint-js`): every script the browser runs. The recommended rules, and
// the browser's globals; the modules of static/app/ are ES modules, the other scripts
// in static/ plain scripts, and the service worker a template rendered by pwa/views.py.
import js from "@eslint/js";
import globals from "globals";

// The service worker's template with its Jinja expressions ({{ … }}, the one JSON value
// each) read as null, so that it is linted as the script it becomes.
const jinja = {
  preprocess: (text) => [text.replace(/\{\{[^}]*\}\}/g, "null")],
  postprocess: (messages) => messages.flat(),
};

export default [
  { ignores: ["node_modules/", ".venv/", "build/", "test-output/"] },
  js.configs.recommended,
  {
    files: ["scorekeeper/static/**/*.js"],
    languageOptions: { sourceType: "script", globals: globals.browser },
  },
  {
    files: ["scorekeeper/static/app.js", "scorekeeper/static/app/**/*.js"],
    languageOptions: { sourceType: "module" },
  },
  {
    files: ["scorekeeper/templates/pwa/sw.js"],
    processor: jinja,
    languageOptions: { sourceType: "script", globals: globals.serviceworker },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];
