// Interactive reference: fetches the OpenAPI document named by <body data-openapi>, renders every
// operation (parameters, responses, data schema) with a "Try it" form, and honours
// #try=<path>[?query] on load (fills that route's form and calls it). No dependencies.
(function () {
  "use strict";
  var specUrl = document.body.getAttribute("data-openapi");
  var app = document.getElementById("app");
  var nav = document.getElementById("nav");
  var spec = null;
  var operations = [];

  function h(tag, attrs) {
    var el = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (attrs[k] === null || attrs[k] === undefined) return;
        if (k === "text") el.textContent = attrs[k];
        else el.setAttribute(k, attrs[k]);
      });
    }
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined) continue;
      if (Array.isArray(child)) child.forEach(function (c) { if (c) el.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
      else el.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return el;
  }

  function deref(node) {
    var guard = 0;
    while (node && typeof node === "object" && node.$ref && guard++ < 32) {
      node = node.$ref.replace(/^#\//, "").split("/").reduce(function (o, k) {
        return o ? o[k.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
      }, spec);
    }
    return node || {};
  }

  function refName(node) {
    return node && node.$ref ? node.$ref.split("/").pop() : null;
  }

  // allOf parts merged shallowly (properties and required united), the rest kept as is
  function flatten(schema) {
    schema = deref(schema);
    if (!schema.allOf) return schema;
    var out = {};
    var props = {};
    var required = [];
    schema.allOf.map(flatten).concat([schema]).forEach(function (part) {
      Object.keys(part).forEach(function (k) {
        if (k === "properties") Object.keys(part.properties).forEach(function (p) { props[p] = props[p] ? { allOf: [props[p], part.properties[p]] } : part.properties[p]; });
        else if (k === "required") required = required.concat(part.required);
        else if (k !== "allOf") out[k] = part[k];
      });
    });
    if (Object.keys(props).length) out.properties = props;
    if (required.length) out.required = required;
    return out;
  }

  function typeText(schema) {
    if (schema.const !== undefined) return "const " + JSON.stringify(schema.const);
    if (schema.enum) return "one of " + schema.enum.map(function (v) { return JSON.stringify(v); }).join(", ");
    var t = schema.type;
    if (Array.isArray(t)) t = t.join(" | ");
    if (t === "array") return "array";
    var bits = [t || (schema.properties ? "object" : schema.oneOf || schema.anyOf ? "" : "any")];
    if (schema.format) bits.push("(" + schema.format + ")");
    // a long pattern (chainIds, decimals, timestamps) is for machines: its rule is in words in the description
    if (schema.pattern && schema.pattern.length <= 60) bits.push("matching " + schema.pattern);
    if (schema.minimum !== undefined || schema.maximum !== undefined) bits.push("[" + (schema.minimum !== undefined ? schema.minimum : "") + ".." + (schema.maximum !== undefined ? schema.maximum : "") + "]");
    return bits.join(" ");
  }

  function schemaNode(schema, depth) {
    var name = refName(schema);
    schema = flatten(schema);
    var items = [];
    if (depth > 8) return h("span", { class: "type", text: name || "…" });
    var label = h("span", { class: "type", text: (name ? name + ": " : "") + typeText(schema) });
    if (schema.type === "array" || (Array.isArray(schema.type) && schema.type.indexOf("array") >= 0)) {
      var inner = schema.items ? schemaNode(schema.items, depth + 1) : h("span", { text: "any" });
      return h("span", null, label, " of ", inner);
    }
    var alts = schema.oneOf || schema.anyOf;
    if (alts) {
      items = alts.map(function (alt) { return h("li", null, schemaNode(alt, depth + 1)); });
      return h("span", null, label, " one of:", h("ul", null, items));
    }
    if (schema.properties) {
      var required = schema.required || [];
      items = Object.keys(schema.properties).map(function (key) {
        var prop = schema.properties[key];
        var desc = deref(prop).description || flatten(prop).description;
        return h("li", null,
          h("span", { class: "prop", text: key }), " ",
          required.indexOf(key) >= 0 ? h("span", { class: "req", text: "required " }) : null,
          schemaNode(prop, depth + 1),
          desc ? h("span", { class: "desc", text: " — " + desc }) : null);
      });
      return h("span", null, label, h("ul", null, items));
    }
    return label;
  }

  function paramRows(params) {
    return params.map(function (p) {
      var s = p.schema || {};
      return h("tr", null,
        h("td", null, h("code", { text: p.name })),
        h("td", { text: p.in + (p.required ? " (required)" : "") }),
        h("td", { text: typeText(s) }),
        h("td", { text: s.default !== undefined ? String(s.default) : "" }),
        h("td", { text: p.description || "" }));
    });
  }

  function slug(path) {
    return "op-" + path.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "");
  }

  function renderOperation(path, method, op) {
    var params = (op.parameters || []).map(deref).filter(function (p) { return p.in === "path" || p.in === "query"; });
    var section = h("section", { class: "operation", id: slug(path), "data-path": path, "data-method": method.toUpperCase() });
    section.appendChild(h("h2", null, h("span", { class: "method", text: method.toUpperCase() }), h("span", { class: "path", text: path }), h("span", { class: "summary", text: op.summary || "" })));
    if (op.description) section.appendChild(h("p", { class: "description", text: op.description }));
    var facts = [];
    if (op["x-snapshot-backed"] !== undefined) facts.push(op["x-snapshot-backed"] ? "snapshot-backed (ETag, If-None-Match → 304)" : "not snapshot-backed (no ETag)");
    if (op["x-cache-ttl-seconds"] !== undefined) facts.push("cache " + op["x-cache-ttl-seconds"] + " s");
    if (facts.length) section.appendChild(h("p", { class: "desc", text: facts.join(" · ") }));

    section.appendChild(h("h4", { text: "Parameters" }));
    if (params.length) {
      section.appendChild(h("table", { class: "params" }, h("thead", null, h("tr", null, ["name", "in", "type", "default", "description"].map(function (t) { return h("th", { text: t }); }))), h("tbody", null, paramRows(params))));
    } else {
      section.appendChild(h("p", { class: "desc", text: "none" }));
    }

    section.appendChild(h("h4", { text: "Responses" }));
    var responses = op.responses || {};
    var rows = Object.keys(responses).map(function (status) {
      var r = deref(responses[status]);
      return h("tr", null, h("td", null, h("code", { text: status })), h("td", { text: r.description || "" }));
    });
    section.appendChild(h("table", { class: "responses" }, h("tbody", null, rows)));
    var ok = deref(responses["200"] || {});
    var okSchema = ok.content && ok.content["application/json"] && ok.content["application/json"].schema;
    if (okSchema) {
      var data = flatten(okSchema).properties && flatten(okSchema).properties.data;
      section.appendChild(h("h4", { text: "Response schema (200 data)" }));
      section.appendChild(h("div", { class: "schema" }, h("ul", null, h("li", null, h("span", { class: "prop", text: "data " }), schemaNode(data || okSchema, 0)))));
    }

    // Try it
    var form = h("form", { class: "tryit", "data-path": path });
    form.appendChild(h("h4", { text: "Try it" }));
    var inputs = {};
    params.forEach(function (p) {
      var s = p.schema || {};
      var input;
      if (s.enum) {
        input = h("select", { name: p.name }, (p.required ? [] : [h("option", { value: "", text: "(default)" })]).concat(s.enum.map(function (v) { return h("option", { value: String(v), text: String(v) }); })));
      } else {
        input = h("input", { name: p.name, type: "text", placeholder: s.default !== undefined ? String(s.default) : (p.required ? "required" : "") });
      }
      inputs[p.name] = { param: p, el: input };
      form.appendChild(h("label", null, p.name + " (" + p.in + ")", input));
    });
    var button = h("button", { type: "submit", text: "Send GET" });
    form.appendChild(h("div", null, button));
    var result = h("div", { class: "result", "aria-live": "polite" });
    form.appendChild(result);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      call(path, inputs, result);
    });
    section.appendChild(form);
    operations.push({ path: path, pattern: templateRegex(path), inputs: inputs, result: result, section: section });
    return section;
  }

  function templateRegex(path) {
    var names = [];
    var source = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{([^}]+)\}/g, function (_, name) { names.push(name); return "([^/]+)"; });
    return { re: new RegExp("^" + source + "$"), names: names };
  }

  function buildUrl(path, inputs) {
    var query = [];
    var url = path;
    Object.keys(inputs).forEach(function (name) {
      var p = inputs[name].param;
      var value = inputs[name].el.value;
      if (p.in === "path") url = url.replace("{" + name + "}", encodeURIComponent(value));
      else if (value !== "") query.push(encodeURIComponent(name) + "=" + encodeURIComponent(value));
    });
    return url + (query.length ? "?" + query.join("&") : "");
  }

  function call(path, inputs, result) {
    var url = buildUrl(path, inputs);
    result.textContent = "";
    result.appendChild(h("p", { class: "desc", text: "GET " + url + " …" }));
    result.setAttribute("data-state", "pending");
    var started = Date.now();
    fetch(url, { headers: { Accept: "application/json" } }).then(function (res) {
      return res.text().then(function (text) {
        var pretty = text;
        try { pretty = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON: shown raw */ }
        var headers = ["content-type", "cache-control", "etag", "retry-after"].filter(function (k) { return res.headers.get(k); }).map(function (k) { return k + ": " + res.headers.get(k); });
        result.textContent = "";
        result.appendChild(h("p", null, h("span", { class: res.ok ? "status-ok" : "status-bad", text: "HTTP " + res.status }), " GET " + url + " in " + (Date.now() - started) + " ms"));
        if (headers.length) result.appendChild(h("pre", { class: "try-headers", text: headers.join("\n") }));
        result.appendChild(h("pre", { class: "try-response", "data-status": String(res.status), text: pretty }));
        result.setAttribute("data-state", "done");
      });
    }).catch(function (err) {
      result.textContent = "";
      result.appendChild(h("p", { class: "error", text: "request failed: " + err }));
      result.setAttribute("data-state", "failed");
    });
  }

  function tryFromHash() {
    var match = /^#try=(.+)$/.exec(location.hash);
    if (!match) return;
    var target = decodeURIComponent(match[1]);
    var q = target.indexOf("?");
    var path = q >= 0 ? target.slice(0, q) : target;
    var query = q >= 0 ? target.slice(q + 1) : "";
    for (var i = 0; i < operations.length; i++) {
      var op = operations[i];
      var m = op.pattern.re.exec(path);
      if (!m) continue;
      op.pattern.names.forEach(function (name, j) { if (op.inputs[name]) op.inputs[name].el.value = decodeURIComponent(m[j + 1]); });
      query.split("&").filter(Boolean).forEach(function (pair) {
        var kv = pair.split("=");
        var name = decodeURIComponent(kv[0]);
        if (op.inputs[name]) op.inputs[name].el.value = decodeURIComponent((kv[1] || "").replace(/\+/g, " "));
      });
      op.section.scrollIntoView();
      call(op.path, op.inputs, op.result);
      return;
    }
    app.insertBefore(h("p", { class: "error", id: "try-unknown", text: "#try: no route matches " + path }), app.firstChild);
  }

  function render(doc) {
    spec = doc;
    var info = doc.info || {};
    document.title = (info.title || "API") + " " + (info.version || "") + " reference";
    document.getElementById("title").textContent = (info.title || "API") + " " + (info.version || "");
    app.textContent = "";
    var meta = [];
    if (info.license) meta.push("license " + (info.license.identifier || info.license.name));
    (doc.servers || []).forEach(function (s) { meta.push("server " + s.url); });
    app.appendChild(h("p", { class: "desc", id: "info", text: "OpenAPI " + doc.openapi + " · " + meta.join(" · ") }));
    if (info.description) app.appendChild(h("p", { class: "intro", text: info.description }));
    var byTag = {};
    Object.keys(doc.paths || {}).forEach(function (path) {
      var item = doc.paths[path];
      ["get", "post", "put", "patch", "delete"].forEach(function (method) {
        var op = item[method];
        if (!op) return;
        app.appendChild(renderOperation(path, method, op));
        var tag = (op.tags && op.tags[0]) || "other";
        (byTag[tag] = byTag[tag] || []).push(path);
      });
    });
    nav.textContent = "";
    Object.keys(byTag).sort().forEach(function (tag) {
      nav.appendChild(h("h3", { text: tag }));
      byTag[tag].forEach(function (path) { nav.appendChild(h("a", { href: "#" + slug(path), class: "nav-path", text: path })); });
    });
    document.body.setAttribute("data-rendered", String(operations.length));
    tryFromHash();
  }

  window.addEventListener("hashchange", function () { if (spec) tryFromHash(); });
  fetch(specUrl, { headers: { Accept: "application/json" } })
    .then(function (res) { if (!res.ok) throw new Error("HTTP " + res.status); return res.json(); })
    .then(render)
    .catch(function (err) {
      app.textContent = "";
      app.appendChild(h("p", { class: "error", id: "load-error", text: "Could not load " + specUrl + ": " + err }));
    });
})();
