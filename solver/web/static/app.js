// dipsat sandbox: the page over dipsat serve's HTTP API (docs/serve.md). Plain modern
// JavaScript, no library, no network beyond the server that sent it.

const $ = (sel) => document.querySelector(sel);
const page = {
  last: null,        // the last /api/adjudicate answer
  drawn: null,       // the last /api/draw answer (its `state` is the position as dipsat JSON)
  edited: null,      // the position the editor set last: {text, state} (see editableState)
  history: [],       // the inputs of the phases stepped from (Back)
  kept: null,        // "What if": order text -> result word of the results kept
  resolution: 0,     // the consistent resolution shown
  clicks: [],        // provinces clicked for the order being given
  unread: {text: "", marks: []},  // the orders' text last read and where its unreadable lines are
  checking: null,    // the timer of the next reading of the orders as they are typed
  asked: 0,          // drawings and adjudications asked for: an answer to one that is not the last is dropped
};

// --- talking to the server -----------------------------------------------------------

async function call(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await response.json().catch(() => ({error: `${path}: HTTP ${response.status}`}));
  if (!response.ok) {
    const error = new Error((data.problems || [data.error]).join("\n"));
    error.status = response.status;
    throw error;
  }
  return data;
}

function status(text, error = false) {
  const el = $("#status");
  el.textContent = text;
  el.classList.toggle("error", error);
}

function inputs() {
  return {p: $("#position").value, o: $("#orders").value, r: $("#rules").value, x: $("#overrides").value.trim(),
          c: $("#compare").value.trim(), a: $("#show-all").checked, g: $("#game-phase").value, n: $("#players").value};
}

// what the server reads of a page's inputs (for /api/draw and /api/adjudicate)
function request(s) { return {position: s.p, orders: s.o, phase: s.g || null, players: s.n ? Number(s.n) : null}; }

function setInputs(s) {
  $("#position").value = s.p ?? "standard";
  $("#orders").value = s.o ?? "";
  $("#rules").value = s.r ?? "";
  $("#overrides").value = s.x ?? "";
  $("#compare").value = s.c ?? "";
  $("#show-all").checked = s.a ?? true;
  showPhases(s.g ? [s.g] : [], s.g ?? "");
  setPlayers(s.n ?? "");
}

function setPlayers(n) {
  // the player set-up chosen (its option may come only with the position's set-ups: kept till then)
  const select = $("#players");
  if (n && ![...select.options].some((o) => o.value === String(n))) select.append(new Option(`${n} players`, String(n)));
  select.value = String(n);
}

function fillSetups(setups) {
  // the variant's player set-ups: who plays which powers, who is neutral
  const select = $("#players");
  const chosen = select.value;
  const options = setups.map((s) => new Option(
    `${s.players}: ${s.controls.join(" · ")}${s.neutral.length ? `; neutral ${s.neutral.join(", ")}` : ""}`, String(s.players)));
  select.replaceChildren(select.options[0], ...options);
  if (chosen && !setups.some((s) => String(s.players) === chosen)) select.append(new Option(`${chosen} players`, chosen));
  select.value = chosen;
  $("#players-label").hidden = setups.length === 0 && !chosen;  // a recorded game has its own
}

function showPhases(phases, chosen) {
  // a recorded game: its phases, to go back and forth through
  const select = $("#game-phase");
  if ([...select.options].map((o) => o.value).join() !== phases.join()) {
    select.replaceChildren(...phases.map((p) => new Option(p, p)));
  }
  select.value = chosen;
  $("#game-row").hidden = phases.length === 0;
}

async function goToPhase(step) {
  const select = $("#game-phase");
  const k = select.selectedIndex + step;
  if (k < 0 || k >= select.options.length) return;
  select.selectedIndex = k;
  $("#orders").value = "";  // the phase's recorded orders
  await adjudicate();
}

function rulesText(s) { return [s.r, s.x].filter(Boolean).join(" "); }

// --- the whole state in the URL ------------------------------------------------------

function encodeState(s) {
  const bytes = new TextEncoder().encode(JSON.stringify(s));
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeState(text) {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(raw, (c) => c.charCodeAt(0))));
}

function updatePermalink() {
  const url = `${location.origin}${location.pathname}#s=${encodeState(inputs())}`;
  $("#permalink").href = url;
  history.replaceState(null, "", url);
}

// --- the board: dipsat's own SVG, zoomable and pannable ------------------------------

function showBoard(svg) {
  const board = $("#board");
  const before = board.querySelector("svg.map");
  const kept = before ? {home: before.dataset.home, view: before.getAttribute("viewBox")} : null;
  board.innerHTML = svg;
  const map = board.querySelector("svg.map");
  if (!map) return;
  map.dataset.home = map.getAttribute("viewBox").split(/\s+/).map(Number).join(" ");
  if (kept && kept.home === map.dataset.home) map.setAttribute("viewBox", kept.view);  // the same map: keep the zoom
  for (const g of board.querySelectorAll("g.order")) {
    g.addEventListener("click", (event) => {
      if ($("#tool").value) return;
      event.stopPropagation();
      const text = g.querySelector("title")?.textContent.split(" — ")[0];
      const row = [...document.querySelectorAll("#results tbody tr")].find((r) => r.dataset.order === text);
      if (row) select(Number(row.dataset.index));
    });
  }
}

function viewBox() {
  const map = $("#board svg.map");
  return map ? map.getAttribute("viewBox").split(/\s+/).map(Number) : null;
}

function zoom(factor, cx = 0.5, cy = 0.5) {
  const map = $("#board svg.map");
  const box = viewBox();
  if (!box) return;
  const [x, y, w, h] = box;
  const nw = w / factor, nh = h / factor;
  map.setAttribute("viewBox", [x + (w - nw) * cx, y + (h - nh) * cy, nw, nh].map((v) => v.toFixed(2)).join(" "));
}

function setUpPanZoom() {
  const board = $("#board");
  let drag = null;
  board.addEventListener("wheel", (event) => {
    const map = board.querySelector("svg.map");
    if (!map) return;
    event.preventDefault();
    const rect = map.getBoundingClientRect();
    zoom(event.deltaY < 0 ? 1.2 : 1 / 1.2, (event.clientX - rect.left) / rect.width, (event.clientY - rect.top) / rect.height);
  }, {passive: false});
  board.addEventListener("pointerdown", (event) => {
    if ($("#tool").value || event.button !== 0) return;
    drag = {x: event.clientX, y: event.clientY, box: viewBox(), moved: false};
  });
  board.addEventListener("pointermove", (event) => {
    if (!drag || !drag.box) return;
    const map = board.querySelector("svg.map");
    const rect = map.getBoundingClientRect();
    const dx = (event.clientX - drag.x) * drag.box[2] / rect.width, dy = (event.clientY - drag.y) * drag.box[3] / rect.height;
    if (Math.abs(dx) + Math.abs(dy) > 0.5) drag.moved = true;
    map.setAttribute("viewBox", [drag.box[0] - dx, drag.box[1] - dy, drag.box[2], drag.box[3]].map((v) => v.toFixed(2)).join(" "));
  });
  for (const end of ["pointerup", "pointerleave"]) board.addEventListener(end, () => { drag = null; });
  board.addEventListener("click", onBoardClick);
  $("#zoom-in").addEventListener("click", () => zoom(1.4));
  $("#zoom-out").addEventListener("click", () => zoom(1 / 1.4));
  $("#zoom-reset").addEventListener("click", () => {
    const map = $("#board svg.map");
    if (map) map.setAttribute("viewBox", map.dataset.home);
  });
}

// --- drawing the position, adjudicating ----------------------------------------------

function showRejected(lines, text, unread) {
  // each order line that cannot be read: marked beside it in the orders' box, and listed below
  page.unread = {text, marks: unread};
  markOrders();
  const list = $("#order-errors");
  list.replaceChildren(...lines.map((r) => {
    const li = document.createElement("li");
    const mark = unread.find((m) => m.line === r.line);
    li.textContent = mark ? `line ${r.line}, column ${mark.column}: ${mark.message}` : r.line ? `line ${r.line}: ${r.error}` : r.error;
    if (mark) {
      li.dataset.line = String(mark.line);
      li.title = "go to the line";
      li.addEventListener("click", () => goToLine(mark));
    }
    return li;
  }));
}

// lines as the server numbers them (Python's str.splitlines)
const LINES = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

function markOrders() {
  // the marks under the orders' text: a line read as it is now keeps its mark, a changed one loses it
  const box = $("#orders"), marks = $("#orders-marks");
  const now = box.value.split(LINES), then = page.unread.text.split(LINES);
  const same = (m) => now[m.line - 1] !== undefined && now[m.line - 1] === then[m.line - 1];
  const byLine = new Map(page.unread.marks.filter(same).map((m) => [m.line, m]));
  marks.replaceChildren(...now.map((text, k) => {
    const div = document.createElement("div");
    div.className = "line";
    const mark = byLine.get(k + 1);
    if (!mark) { div.textContent = text || "\u200b"; return div; }
    div.classList.add("bad");
    div.dataset.line = String(k + 1);
    const at = mark.column - 1, end = at + Math.max(mark.length, 1);
    const fragment = document.createElement("span");
    fragment.className = "fragment";
    fragment.textContent = text.slice(at, end) || " ";
    const why = document.createElement("span");
    why.className = "why";
    why.textContent = `   ⚠ ${mark.message}`;
    div.append(text.slice(0, at), fragment, text.slice(end), why);
    return div;
  }));
  marks.scrollTop = box.scrollTop;
  marks.scrollLeft = box.scrollLeft;
}

function markAt(event) {
  // the message of the marked line under the pointer, as the orders box's tooltip
  const box = $("#orders");
  const y = event.clientY - box.getBoundingClientRect().top - box.clientTop - 4 + box.scrollTop;
  const line = Math.floor(y / 18) + 1;
  const now = box.value.split(LINES)[line - 1];
  const mark = page.unread.marks.find((m) => m.line === line && now !== undefined && now === page.unread.text.split(LINES)[line - 1]);
  box.title = mark ? `line ${line}: ${mark.message}` : "";
}

function goToLine(mark) {
  const box = $("#orders");
  const lines = box.value.split(LINES);
  const start = lines.slice(0, mark.line - 1).reduce((n, l) => n + l.length + 1, 0) + mark.column - 1;
  box.focus();
  box.setSelectionRange(start, start + Math.max(mark.length, 1));
}

function checkOrdersSoon() {
  // the orders read again as they are typed (nothing adjudicated, nothing drawn)
  markOrders();
  clearTimeout(page.checking);
  page.checking = setTimeout(async () => {
    const s = inputs();
    try {
      const data = await call("/api/draw", {...request(s), pictures: false});
      if ($("#orders").value === s.o) showRejected(data.rejected, data.input.orders, data.input.unread);
    } catch {
      // the position cannot be read: adjudicating says why
    }
  }, 500);
}

const PHASE_PARTS = ["season", "year", "kind"];

async function draw() {
  const s = inputs();
  const asked = ++page.asked;
  const typed = PHASE_PARTS.map((part) => $(`#${part}`).value);  // the phase's boxes as this drawing was asked
  try {
    const data = await call("/api/draw", request(s));
    if (asked !== page.asked) return;  // the inputs changed since: a later answer shows them
    showPhases(data.input.phases, data.input.phase);
    page.drawn = data;
    showBoard(data.pictures.board);
    showRejected(data.rejected, data.input.orders, data.input.unread);
    fillPowers(data.powers);
    fillSetups(data.setups);
    PHASE_PARTS.forEach((part, i) => {  // the phase drawn, but not over a box changed since it was asked
      if ($(`#${part}`).value === typed[i]) $(`#${part}`).value = String(data.state.phase[part]);
    });
    $("#note").textContent = [data.input.note ? `Position: ${data.input.note}.` : "", playersNote(data.input)].join(" ").trim();
    status(`${data.input.name}: ${data.state.units.length} units`);
  } catch (error) {
    if (asked === page.asked) status(error.message, true);
  }
}

async function adjudicate() {
  const s = inputs();
  status("adjudicating…");
  const asked = ++page.asked;
  try {
    const started = performance.now();
    const data = await call("/api/adjudicate", {...request(s), rules: rulesText(s), explain: true, all: s.a, compare: s.c});
    if (asked !== page.asked) return;  // the inputs changed since: a later answer shows them
    showPhases(data.input.phases, data.input.phase);
    page.last = data;
    page.resolution = 0;
    if (!s.o.trim() && data.input.orders) $("#orders").value = data.input.orders;  // the position's own orders
    showBoard(data.pictures.board);
    showRejected(data.rejected, data.input.orders, data.input.unread);
    renderResults(data);
    renderAlternatives(data.alternatives);
    renderComparison(data.comparison, data.pictures.compare);
    $("#note").textContent = [data.input.note ? `Position: ${data.input.note}.` : "", playersNote(data.input),
      data.solver.backup_rules.length ? `Backup rule: ${data.solver.backup_rules.join("; ")}.` : ""].join(" ").trim();
    $("#step").disabled = false;
    status(`${data.orders.length} orders under rules ${data.rules}, ${Math.round(performance.now() - started)} ms`);
    updatePermalink();
  } catch (error) {
    if (asked === page.asked) status(error.message, true);
  }
}

function playersNote(input) {
  if (!input.players) return "";
  const neutral = input.neutral.length ? `: ${input.neutral.join(", ")} neutral, ${input.neutral.length > 1 ? "their" : "its"} orders ignored` : "";
  return `The ${input.players}-player game${neutral}.`;
}

function cell(text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

function renderResults(data) {
  const core = new Set(data.alternatives?.paradox_core ?? []);
  const rows = [...data.orders].sort((a, b) => a.index - b.index).map((o) => {
    const tr = document.createElement("tr");
    tr.dataset.index = o.index;
    tr.dataset.order = o.order;
    tr.classList.toggle("failed", !o.succeeded);
    tr.classList.toggle("paradox", o.result === "paradox");
    tr.classList.toggle("in-core", core.has(o.order));
    if (core.has(o.order)) tr.title = "one of the orders of the paradox's core";
    const result = cell(o.result, "result");
    const was = page.kept?.get(o.order);
    if (was !== undefined && was !== o.result) {
      tr.classList.add("changed");
      const span = document.createElement("span");
      span.className = "was";
      span.textContent = ` (was ${was})`;
      result.append(span);
    }
    tr.append(cell(String(o.index + 1)), cell(o.order, "order"), result, cell(o.detail || ""));
    tr.addEventListener("click", () => select(o.index));
    return tr;
  });
  $("#results tbody").replaceChildren(...rows);
  $("#explanation").hidden = true;
}

function select(index) {
  const data = page.last;
  if (!data) return;
  for (const tr of document.querySelectorAll("#results tbody tr")) tr.classList.toggle("selected", Number(tr.dataset.index) === index);
  const order = data.orders.find((o) => o.index === index);
  for (const g of document.querySelectorAll("#board g.order")) {
    g.classList.toggle("selected", g.querySelector("title")?.textContent.split(" — ")[0] === order?.order);
  }
  const facts = (data.explanations || []).find((e) => e.index === index)?.facts ?? [];
  const box = $("#explanation");
  const h = document.createElement("h3");
  h.textContent = `${order.order}: ${order.result}`;
  const ul = document.createElement("ul");
  ul.replaceChildren(...facts.map((f) => { const li = document.createElement("li"); li.textContent = f; return li; }));
  box.replaceChildren(h, ul);
  box.hidden = false;
}

function renderAlternatives(alt) {
  const box = $("#alternatives");
  if (!alt || (alt.count <= 1 && !alt.paradox_core.length && !alt.backup_rules.length)) { box.hidden = true; return; }
  const h = document.createElement("h3");
  h.textContent = alt.count === 0 ? "No consistent resolution: a paradox" :
    `${alt.count}${alt.capped ? "+" : ""} consistent resolutions` + (alt.chosen !== null ? `; the rules take number ${alt.chosen + 1}` : "");
  const parts = [h];
  const p = (text) => { const el = document.createElement("p"); el.textContent = text; parts.push(el); };
  if (alt.backup_rules.length) p(`Backup rule: ${alt.backup_rules.join("; ")}`);
  if (alt.paradox_core.length) p(`The paradox's core: ${alt.paradox_core.join(", ")}`);
  if (alt.differing.length) p(`They differ on: ${alt.differing.join(", ")}`);
  if (alt.resolutions.length) {
    const nav = document.createElement("div");
    const label = document.createElement("span");
    const list = document.createElement("ul");
    list.className = "resolution";
    const show = () => {
      const k = page.resolution;
      label.textContent = ` resolution ${k + 1} of ${alt.resolutions.length}${k === alt.chosen ? " (the one taken)" : ""} `;
      list.replaceChildren(...alt.resolutions[k].map((d) => {
        const li = document.createElement("li");
        li.textContent = `${d.kind}: ${d.value}`;
        return li;
      }));
    };
    const button = (text, id, step) => {
      const b = document.createElement("button");
      b.type = "button"; b.textContent = text; b.id = id;
      b.addEventListener("click", () => {
        page.resolution = (page.resolution + step + alt.resolutions.length) % alt.resolutions.length;
        show();
      });
      return b;
    };
    nav.append(button("◀", "resolution-prev", -1), label, button("▶", "resolution-next", 1));
    show();
    parts.push(nav, list);
  }
  box.replaceChildren(...parts);
  box.hidden = false;
}

function renderComparison(comparison, pictures) {
  const box = $("#comparison");
  if (!comparison) { box.hidden = true; return; }
  const h = document.createElement("h3");
  h.textContent = comparison.all_agree ? `${comparison.profiles.join(", ")}: every result the same` :
    `${comparison.differences.length} difference(s) between ${comparison.profiles.join(", ")}`;
  const table = document.createElement("table");
  table.id = "comparison-table";
  const head = document.createElement("tr");
  head.append(cell("what"), cell("of"), ...comparison.profiles.map((n) => cell(`${n} (${comparison.rules[n]})`)));
  table.append(head);
  for (const d of comparison.differences) {
    const tr = document.createElement("tr");
    tr.append(cell(d.what), cell(d.subject), ...comparison.profiles.map((n) => cell(String(d.results[n]))));
    table.append(tr);
  }
  const figures = document.createElement("div");
  figures.className = "pictures";
  for (const [name, svg] of Object.entries(pictures || {})) {
    const fig = document.createElement("figure");
    const img = document.createElement("img");  // an image of its own: its ids stay apart from #board's
    img.src = URL.createObjectURL(new Blob([svg], {type: "image/svg+xml"}));
    img.alt = `the results under ${name}`;
    fig.append(img);
    const caption = document.createElement("figcaption");
    caption.textContent = name;
    fig.append(caption);
    figures.append(fig);
  }
  box.replaceChildren(h, table, figures);
  box.hidden = false;
}

// --- stepping to the next phase and back ---------------------------------------------

async function step() {
  if (!page.last) return;
  page.history.push(inputs());
  const next = page.last.input.next;
  // the next phase is played with the same set-up (a case's PLAYERS line, which its JSON does not carry)
  setInputs({...inputs(), p: JSON.stringify(next, null, 1), o: "", g: "", n: inputs().n || String(page.last.input.players ?? "")});
  page.last = null;
  $("#back").disabled = false;
  $("#step").disabled = true;
  clearResults();
  await draw();
  updatePermalink();
}

async function back() {
  const previous = page.history.pop();
  if (!previous) return;
  setInputs(previous);
  $("#back").disabled = page.history.length === 0;
  clearResults();  // the retreat phase's results are not this phase's
  await adjudicate();
}

function clearResults() {
  $("#results tbody").replaceChildren();
  for (const id of ["#explanation", "#alternatives", "#comparison"]) $(id).hidden = true;
}

// --- setting up a position and orders by clicking ------------------------------------

function fillPowers(powers) {
  const select = $("#power");
  const chosen = select.value;
  if ([...select.options].map((o) => o.value).join() === powers.join()) return;
  select.replaceChildren(...powers.map((p) => new Option(p, p)));
  if (powers.includes(chosen)) select.value = chosen;
}

function provinceAt(event) {
  for (const el of document.elementsFromPoint(event.clientX, event.clientY)) {
    if (el.id?.startsWith("province-")) return el.id.slice("province-".length);
  }
  return null;
}

function editableState() {
  // the position as dipsat JSON, the form the editor changes (the orders stay in their box):
  // the one the editor set last while the box still holds it (its drawing may not be back
  // yet: a quick second edit must not start from the position before the first), else the
  // one drawn last
  const edited = page.edited && $("#position").value === page.edited.text ? page.edited.state : null;
  const state = structuredClone(edited || page.drawn.state);
  delete state.orders;
  return state;
}

async function setPosition(state) {
  const text = JSON.stringify(state, null, 1);
  page.edited = {text, state: structuredClone(state)};
  $("#position").value = text;
  showPhases([], "");
  page.last = null;
  clearResults();
  await draw();
  updatePermalink();
}

const provinceOf = (location) => location.split("/")[0];

function unitAt(province, state) {
  const pool = state.phase.kind === "Retreat" ? state.dislodged : state.units;
  return pool.find((u) => provinceOf(u.location) === province) ?? state.units.find((u) => provinceOf(u.location) === province);
}

async function onBoardClick(event) {
  const tool = $("#tool").value;
  if (!tool || !page.drawn) return;
  const province = provinceAt(event);
  if (!province) return;
  const state = editableState();
  const power = $("#power").value;
  if (tool === "order") return clickOrder(province, state, power, event.shiftKey);
  if (tool === "owner") {
    if (state.owners[province] === power) delete state.owners[province]; else state.owners[province] = power;
    return setPosition(state);
  }
  const here = state.units.findIndex((u) => provinceOf(u.location) === province);
  const old = here >= 0 ? state.units[here] : null;
  if (here >= 0) state.units.splice(here, 1);
  if (tool !== "remove") {
    const coasts = tool === "F" ? page.drawn.coasts[province] ?? [] : [];
    let location = province;
    if (coasts.length) {  // a fleet on a split coast: each click on it takes the next coast
      const at = old && old.kind === "F" && old.power === power ? coasts.indexOf(old.location.split("/")[1]) : -1;
      location = `${province}/${coasts[(at + 1) % coasts.length]}`;
    }
    state.units.push({power, kind: tool, location});
  }
  return setPosition(state);
}

function unitText(unit) { return `${unit.kind} ${unit.location}`; }

function clickOrder(province, state, power, shift) {
  const kind = $("#order-kind").value;
  const needs = {move: 2, hold: 1, support: 3, convoy: 3, retreat: 2, disband: 1, build: 1, remove: 1, waive: 0}[kind];
  page.clicks.push(province);
  const [first, second, third] = page.clicks;
  const unit = unitAt(first, state);
  let text = null;
  if (kind === "waive") text = `${power}: Waive`;
  else if (kind === "build") text = `${power}: Build ${shift ? "F" : "A"} ${first}`;
  else if (!unit) { page.clicks = []; $("#pending").textContent = `no unit in ${first}`; return; }
  else if (page.clicks.length >= needs) {
    const who = `${unit.power}: ${unitText(unit)}`;
    const target = second ? unitAt(second, state) : null;
    if (kind === "hold") text = `${who} H`;
    else if (kind === "disband") text = `${who} D`;
    else if (kind === "remove") text = `${unit.power}: Remove ${unitText(unit)}`;
    else if (kind === "move") text = `${who} - ${second}`;
    else if (kind === "retreat") text = `${who} R ${second}`;
    else if (!target) { page.clicks = []; $("#pending").textContent = `no unit in ${second}`; return; }
    else if (kind === "support") text = third === second ? `${who} S ${unitText(target)}` : `${who} S ${unitText(target)} - ${third}`;
    else text = `${who} C ${unitText(target)} - ${third}`;
  }
  if (text === null) { $("#pending").textContent = `${kind}: ${page.clicks.join(", ")}…`; return; }
  page.clicks = [];
  $("#pending").textContent = "";
  const box = $("#orders");
  box.value = box.value.replace(/\s*$/, "") + (box.value.trim() ? "\n" : "") + text + "\n";
  return draw();
}

// --- export --------------------------------------------------------------------------

function download(name, type, content) {
  const url = URL.createObjectURL(new Blob([content], {type}));
  const a = document.createElement("a");
  a.href = url; a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function needResult() {
  // an export is of the adjudicated position: adjudicated first if it is not yet
  if (!page.last) await adjudicate();
  return page.last;
}

function fileStem() { return (page.last?.input.name || "position").replace(/[^A-Za-z0-9_.-]+/g, "_"); }

function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})[c]);
}

function ruling(data) {
  const rows = [...data.orders].sort((a, b) => a.index - b.index).map((o) => {
    const facts = (data.explanations || []).find((e) => e.index === o.index)?.facts ?? [];
    return `<tr><td>${o.index + 1}</td><td>${escapeHtml(o.order)}</td><td><b>${escapeHtml(o.result)}</b></td>` +
      `<td><ul>${facts.map((f) => `<li>${escapeHtml(f)}</li>`).join("")}</ul></td></tr>`;
  }).join("\n");
  const title = `${data.input.name}${data.input.title ? ": " + data.input.title : ""}`;
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Ruling: ${escapeHtml(title)}</title>
<style>body{font:14px/1.4 "DejaVu Sans",Verdana,sans-serif;max-width:1000px;margin:1em auto}
table{border-collapse:collapse}td,th{border-bottom:1px solid #ccc;padding:.2em .5em;vertical-align:top;text-align:left}
svg{max-width:100%;height:auto}pre{background:#f4f1e8;padding:.5em;overflow:auto}</style></head><body>
<h1>Ruling: ${escapeHtml(title)}</h1>
<p>Adjudicated by dipsat under rules <b id="ruling-rules">${escapeHtml(data.rules)}</b>, ${escapeHtml(data.phase.season)} ${data.phase.year} ${escapeHtml(data.phase.kind)}.</p>
${data.solver.backup_rules.length ? `<p>Backup rule: ${escapeHtml(data.solver.backup_rules.join("; "))}</p>` : ""}
<div id="ruling-board">${data.pictures.board}</div>
<table id="ruling-results"><tr><th>#</th><th>order</th><th>result</th><th>why</th></tr>
${rows}</table>
<h2>The case file, to rerun it</h2>
<p><code>dipsat adjudicate ruling.txt --rules ${escapeHtml(data.rules.split(" ")[0])}</code></p>
<pre id="ruling-case">${escapeHtml(data.input.case)}</pre>
</body></html>\n`;
}

async function exportPng() {
  const data = await needResult();
  if (!data) return;
  const svg = data.pictures.board;
  const image = new Image();
  image.src = URL.createObjectURL(new Blob([svg], {type: "image/svg+xml"}));
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth || 1000;
  canvas.height = image.naturalHeight || 1000;
  canvas.getContext("2d").drawImage(image, 0, 0);
  canvas.toBlob((blob) => download(`${fileStem()}.png`, "image/png", blob), "image/png");
}

function setUpExports() {
  $("#export-case").addEventListener("click", async () => { const d = await needResult(); if (d) download(`${fileStem()}.txt`, "text/plain", d.input.case); });
  $("#export-json").addEventListener("click", async () => {
    // the position, its orders (in the order given) and rules as a dipsat JSON state: `dipsat adjudicate` reruns it
    const d = await needResult();
    if (!d) return;
    const orders = [...d.orders].sort((a, b) => a.index - b.index).map((o) => o.order);
    const state = {format: d.format, type: "state", ...d.before, orders, rules: d.rules};
    download(`${fileStem()}.json`, "application/json", JSON.stringify(state, null, 2) + "\n");
  });
  $("#export-result").addEventListener("click", async () => {
    // the result as `dipsat adjudicate --format json` writes it (the API's answer without pictures and input)
    const d = await needResult();
    if (!d) return;
    const {pictures, input, ...result} = d;
    download(`${fileStem()}.result.json`, "application/json", JSON.stringify(result, null, 2) + "\n");
  });
  $("#export-svg").addEventListener("click", async () => { const d = await needResult(); if (d) download(`${fileStem()}.svg`, "image/svg+xml", d.pictures.board); });
  $("#export-png").addEventListener("click", exportPng);
  $("#export-ruling").addEventListener("click", async () => { const d = await needResult(); if (d) download(`${fileStem()}.ruling.html`, "text/html", ruling(d)); });
}

// --- opening a bundled case ----------------------------------------------------------

async function openCase(id) {
  try {
    const data = await call(`/api/case?id=${encodeURIComponent(id)}`);
    setInputs({p: data.text, o: "", r: "", x: "", c: "", a: true, g: "", n: ""});
    await adjudicate();
  } catch (error) {
    status(error.message, true);
  }
}

async function setUpCaseSearch() {
  const input = $("#case-search");
  let loaded = false;
  input.addEventListener("focus", async () => {
    if (loaded) return;
    loaded = true;
    const data = await call("/api/cases");
    $("#case-list").replaceChildren(...data.cases.map((c) => new Option(c.title, c.id)));
  });
  input.addEventListener("change", () => { if (input.value.trim()) openCase(input.value.trim()); });
}

// --- opening a file of one's own (read by the page: the server never sees a path) ----

async function openFile(file) {
  if (!file) return;
  setInputs({p: await file.text(), o: "", r: "", x: "", c: "", a: true, g: "", n: ""});
  status(`${file.name}: read`);
  await adjudicate();
}

function setUpFiles() {
  $("#open-file").addEventListener("change", (event) => openFile(event.target.files[0]));
  for (const target of ["#position", "#board"]) {  // or dropped on the position or the board
    $(target).addEventListener("dragover", (event) => event.preventDefault());
    $(target).addEventListener("drop", (event) => {
      event.preventDefault();
      openFile(event.dataTransfer.files[0]);
    });
  }
}

// --- start ---------------------------------------------------------------------------

async function start() {
  setUpPanZoom();
  setUpExports();
  setUpCaseSearch();
  setUpFiles();
  $("#adjudicate").addEventListener("click", adjudicate);
  for (const box of ["#position", "#orders"]) {  // Ctrl+Enter in a text adjudicates
    $(box).addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); adjudicate(); }
    });
  }
  $("#step").addEventListener("click", step);
  $("#back").addEventListener("click", back);
  $("#game-prev").addEventListener("click", () => goToPhase(-1));
  $("#game-next").addEventListener("click", () => goToPhase(1));
  $("#game-phase").addEventListener("change", () => goToPhase(0));
  $("#position").addEventListener("change", () => showPhases([], ""));  // a new position: no phase chosen yet
  $("#orders").addEventListener("input", checkOrdersSoon);
  $("#orders").addEventListener("scroll", markOrders);
  $("#orders").addEventListener("mousemove", markAt);
  $("#players").addEventListener("change", async () => {
    const again = page.last !== null;
    clearResults();
    page.last = null;
    await (again ? adjudicate() : draw());
    updatePermalink();
  });
  $("#whatif").addEventListener("click", () => {
    if (!page.last) return status("adjudicate first", true);
    page.kept = new Map(page.last.orders.map((o) => [o.order, o.result]));
    status("results kept: change an order and adjudicate again to see what changes");
  });
  $("#tool").addEventListener("change", () => { page.clicks = []; $("#board").classList.toggle("editing", !!$("#tool").value); });
  $("#new-board").addEventListener("change", async () => {
    const [variant, empty] = $("#new-board").value.split(" ");
    $("#new-board").value = "";
    if (!variant) return;
    setInputs({...inputs(), p: variant, o: "", g: "", n: ""});
    clearResults();
    page.last = null;
    await draw();
    if (empty && page.drawn) {
      const state = editableState();
      state.units = [];
      await setPosition(state);
    }
    updatePermalink();
  });
  for (const part of PHASE_PARTS) {  // the season, year and kind of the phase to play
    $(`#${part}`).addEventListener("change", () => {
      if (!page.drawn) return;
      const state = editableState();
      state.phase = {year: Number($("#year").value), season: $("#season").value, kind: $("#kind").value};
      setPosition(state);
    });
  }
  const rules = call("/api/rules").then((catalogue) => {
    for (const p of catalogue.profiles) $("#rules").append(new Option(`${p.name}: ${p.title}`, p.name));
  });
  const saved = location.hash.startsWith("#s=") ? location.hash.slice(3) : null;
  const caseId = new URLSearchParams(location.search).get("case");
  if (!saved && !caseId) {  // the initial position: drawn while the rules' menu fills
    await Promise.all([draw(), rules]);
    return;
  }
  await rules;  // a saved state names a profile of the menu
  // another link's state opened in this page (the page's own changes replace the URL: no event)
  window.addEventListener("hashchange", () => { if (location.hash.startsWith("#s=")) openSaved(location.hash.slice(3)); });
  return saved ? openSaved(saved) : openCase(caseId);
}

async function openSaved(saved) {
  try {
    setInputs(decodeState(saved));
  } catch {
    status("this link's state cannot be read", true);
    return draw();
  }
  page.history = [];
  $("#back").disabled = true;
  clearResults();
  await draw();
  return adjudicate();
}

start().finally(() => { document.body.dataset.ready = "1"; });
