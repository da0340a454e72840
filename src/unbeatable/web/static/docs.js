// The API docs page: renders the server's own /openapi.json (operations,
// request and response schemas) with a "Try it" form per operation. It stands
// in for Swagger UI, which FastAPI would load from a CDN, so the docs work
// offline and nothing outside this server is ever fetched.
"use strict";

const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child != null) node.append(child);
  }
  return node;
};

function refName(ref) {
  return ref.split("/").pop();
}

function resolve(spec, schema) {
  return schema && schema.$ref ? spec.components.schemas[refName(schema.$ref)] : schema;
}

/** A schema's type as a short text, with links to named schemas. */
function typeOf(schema) {
  if (!schema) return document.createTextNode("any");
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return el("a", { href: `#schema-${name}`, text: name });
  }
  const parts = schema.anyOf || schema.oneOf;
  if (parts) {
    const span = el("span");
    parts.forEach((part, i) => {
      if (i) span.append(" | ");
      span.append(typeOf(part));
    });
    return span;
  }
  if (schema.type === "array") {
    return el("span", {}, "array of ", typeOf(schema.items));
  }
  return document.createTextNode(schema.type || "any");
}

function constraints(schema) {
  const notes = [];
  if (schema.enum) notes.push(`one of: ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.minLength !== undefined) notes.push(`at least ${schema.minLength} characters`);
  if (schema.maxLength !== undefined) notes.push(`at most ${schema.maxLength} characters`);
  if (schema.minimum !== undefined) notes.push(`minimum ${schema.minimum}`);
  if (schema.maximum !== undefined) notes.push(`maximum ${schema.maximum}`);
  for (const part of schema.anyOf || []) notes.push(...constraints(part));
  return notes;
}

function schemaTable(spec, schema) {
  const target = resolve(spec, schema);
  if (!target || !target.properties) {
    if (target && target.enum) return el("p", { text: `One of: ${target.enum.join(", ")}.` });
    return el("p", {}, "Type: ", typeOf(schema));
  }
  const required = new Set(target.required || []);
  const body = el("tbody");
  for (const [name, prop] of Object.entries(target.properties)) {
    const notes = [prop.description, ...constraints(prop)].filter(Boolean).join("; ");
    body.append(
      el(
        "tr",
        {},
        el("th", { scope: "row" }, el("code", { text: name })),
        el("td", {}, typeOf(prop)),
        el("td", { text: required.has(name) ? "required" : "optional" }),
        el("td", { text: notes }),
      ),
    );
  }
  return el(
    "table",
    {},
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th", { scope: "col", text: "Field" }),
        el("th", { scope: "col", text: "Type" }),
        el("th", { scope: "col", text: "" }),
        el("th", { scope: "col", text: "Notes" }),
      ),
    ),
    body,
  );
}

function example(spec, schema) {
  const target = resolve(spec, schema);
  if (target && target.examples && target.examples.length) return target.examples[0];
  return {};
}

function tryIt(method, path, body) {
  const id = `${method}-${path}`.replace(/[^a-z0-9]+/gi, "-");
  const form = el("form", { class: "try" });
  const output = el("pre", { class: "response", "aria-live": "polite", id: `${id}-out` });
  let input = null;
  if (body !== undefined) {
    input = el("textarea", { id: `${id}-body`, rows: "4", spellcheck: "false" });
    input.value = JSON.stringify(body, null, 2);
    form.append(el("label", { for: `${id}-body`, text: "Request body (JSON)" }), input);
  }
  const send = el("button", { type: "submit", text: `Send ${method.toUpperCase()} ${path}` });
  form.append(send, output);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    output.textContent = "…";
    const init = { method: method.toUpperCase() };
    if (input) {
      init.headers = { "Content-Type": "application/json" };
      init.body = input.value;
    }
    try {
      const response = await fetch(path, init);
      const text = await response.text();
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch (err) {
        shown = text;
      }
      output.textContent = `${response.status} ${response.statusText}\n${shown}`;
    } catch (err) {
      output.textContent = `Request failed: ${err.message}`;
    }
  });
  return form;
}

function operation(spec, path, method, op) {
  const section = el(
    "section",
    { class: "operation", id: op.operationId || `${method}-${path}` },
    el("h2", {}, el("span", { class: `verb verb-${method}`, text: method.toUpperCase() }), " ", el("code", { text: path })),
    el("p", { class: "summary", text: op.summary || "" }),
  );
  if (op.description) section.append(el("p", { text: op.description }));
  let body;
  const content = op.requestBody && op.requestBody.content && op.requestBody.content["application/json"];
  if (content) {
    section.append(el("h3", { text: "Request body" }), schemaTable(spec, content.schema));
    body = example(spec, content.schema);
  }
  const list = el("dl", { class: "responses" });
  const codes = Object.keys(op.responses || {}).sort();
  for (const code of codes) {
    const response = op.responses[code];
    const json = response.content && response.content["application/json"];
    list.append(
      el("dt", { text: code }),
      el("dd", {}, response.description || "", json && json.schema ? " — " : "", json && json.schema ? typeOf(json.schema) : null),
    );
  }
  section.append(el("h3", { text: "Responses" }), list, el("h3", { text: "Try it" }), tryIt(method, path, body));
  return section;
}

function render(spec) {
  const root = document.getElementById("docs");
  root.replaceChildren();
  const info = spec.info || {};
  document.title = `${info.title || "API"} ${info.version || ""} — HTTP API`;
  for (const para of (info.description || "").split(/\n\s*\n/)) {
    if (para.trim()) root.append(el("p", { text: para.replace(/\s+/g, " ").trim() }));
  }
  const toc = el("ul", { class: "toc" });
  root.append(el("nav", { "aria-label": "Operations" }, toc));
  for (const [path, methods] of Object.entries(spec.paths || {})) {
    for (const [method, op] of Object.entries(methods)) {
      const section = operation(spec, path, method, op);
      toc.append(el("li", {}, el("a", { href: `#${section.id}` }, `${method.toUpperCase()} ${path}`), ` — ${op.summary || ""}`));
      root.append(section);
    }
  }
  root.append(el("h2", { text: "Schemas" }));
  for (const [name, schema] of Object.entries((spec.components || {}).schemas || {})) {
    root.append(
      el(
        "section",
        { class: "schema", id: `schema-${name}` },
        el("h3", {}, el("code", { text: name })),
        schema.description ? el("p", { text: schema.description }) : null,
        schemaTable(spec, schema),
      ),
    );
  }
}

async function load() {
  const status = document.getElementById("docs-status");
  try {
    const response = await fetch("/openapi.json");
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    render(await response.json());
  } catch (err) {
    status.textContent = `Could not load /openapi.json: ${err.message}`;
  }
}

document.addEventListener("DOMContentLoaded", load);
