// The page of `unodsl serve`: a lobby to make a room, a seat or a spectator's place in one.
// It shows what the server sends this seat (its own view) and sends back the choice clicked;
// it keeps no other state of the game. Every text from the server goes in as textContent.
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const code = (params.get("room") || "").toUpperCase();
let socket = null, view = null, colors = [], retry = 0, lastTotal = 0, countdown = null;
const REACTIONS = ["Nice one!", "Ha ha!", "Oops", "Well played", "Hurry up!", "Good game"];     // words: every font has them

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

const SYMBOLS = { skip: "⊘", reverse: "⇄", draw_two: "+2", wild_draw_four: "+4", draw_four: "+4", wild: "W" };

function card(name, tag) {
  const node = el(tag || "div", "card");
  const parts = name.split("_");
  const color = colors.includes(parts[0]) ? parts[0] : null;
  const rest = color ? parts.slice(1).join("_") : name;
  node.classList.add(color || "wild");
  const WORDS = { two: 2, four: 4, six: 6, ten: 10 };
  const draws = /(?:^|_)draw_(two|four|six|ten|\d+)$/.exec(rest);        // any draw card: +N, as printed
  const big = SYMBOLS[rest] || (draws ? "+" + (WORDS[draws[1]] || draws[1]) : null)
    || (/^\d+$/.test(rest) ? rest : rest.replace(/_/g, " "));
  node.appendChild(el("span", "big", big.length > 3 ? "" : big));
  if (!/^\d+$/.test(rest)) node.appendChild(el("span", "small", rest.replace(/_/g, " ")));
  node.title = name;
  return node;
}

function colored(node, line) {
  // A line of the log with each card and color name in its color. The narration says a card in words,
  // its color or Wild first and each word capitalised ("Red Draw Two", "Wild Draw Four"), a color in lower case.
  const words = line.split(" ");
  for (let i = 0; i < words.length; i++) {
    if (i) node.appendChild(document.createTextNode(" "));
    const head = words[i].replace(/[:,;)]$/, "");
    const lower = head.toLowerCase();
    if (head !== lower && (colors.includes(lower) || lower === "wild")) {      // a card: up to its last word
      let text = words[i];
      while (/^[A-Z0-9]/.test(words[i + 1] || "") && !/[:,;)]$/.test(text)) text += " " + words[++i];
      node.appendChild(el("span", "w-" + (lower === "wild" ? "wild" : lower), text));
    } else if (colors.includes(head) || head === "wild") node.appendChild(el("span", "w-" + head, words[i]));
    else node.appendChild(document.createTextNode(words[i]));
  }
  return node;
}

// --- lobby ---------------------------------------------------------------------------------

async function lobby() {
  $("lobby").hidden = false;
  const options = await (await fetch("/api/options")).json();
  $("variant").textContent = options.variant;
  $("players").value = options.players;
  for (const rule of options.house_rules) {
    const label = el("label");
    const box = el("input"); box.type = "checkbox"; box.value = rule.name; box.name = "house";
    box.dataset.clashes = JSON.stringify(rule.clashes || []);
    box.onchange = greyClashes;
    label.append(box, " " + rule.title + " ", el("small", "", rule.summary), el("small", "why-not"));
    $("house").appendChild(label);
  }
  listRooms();
  setInterval(listRooms, 5000);
  for (const ruling of options.rulings) {
    const label = el("label", "", ruling.name + " ");
    let input;
    if (typeof ruling.value === "boolean") {
      input = el("input"); input.type = "checkbox"; input.checked = ruling.value;
    } else if (ruling.choices) {
      input = el("select");
      for (const c of ruling.choices) { const o = el("option", "", String(c)); o.value = c; input.appendChild(o); }
      input.value = ruling.value;
    } else {
      input = el("input"); input.value = ruling.value === null ? "" : ruling.value;
      if (typeof ruling.value === "number") input.type = "number";
    }
    input.dataset.ruling = ruling.name;
    input.dataset.initial = JSON.stringify(ruling.value);
    label.appendChild(input);
    if (ruling.summary) label.appendChild(el("small", "", " " + ruling.summary));
    $("rulings").appendChild(label);
  }
  $("make").onsubmit = async (event) => {
    event.preventDefault();
    const rulings = {};
    for (const input of document.querySelectorAll("[data-ruling]")) {
      const initial = JSON.parse(input.dataset.initial);
      let value = input.type === "checkbox" ? input.checked : input.value;
      if (typeof initial === "number") value = Number(value);
      if (JSON.stringify(value) !== JSON.stringify(initial)) rulings[input.dataset.ruling] = value;
    }
    const body = { players: Number($("players").value), match: $("match").checked, rulings,
                   listed: $("listed").checked, turn_timer: Number($("timer").value),
                   include: [...document.querySelectorAll("input[name=house]:checked")].map((b) => b.value) };
    const answer = await fetch("/api/rooms", { method: "POST", body: JSON.stringify(body) });
    const made = await answer.json();
    if (!answer.ok) { $("make-error").textContent = made.error; return; }
    location.search = "?room=" + made.code;
  };
}

function greyClashes() {
  // A house rule that does not go with a chosen one is greyed out, the reason beside it in words.
  const boxes = [...document.querySelectorAll("input[name=house]")];
  const chosen = new Set(boxes.filter((b) => b.checked).map((b) => b.value));
  for (const box of boxes) {
    const clash = JSON.parse(box.dataset.clashes).find((c) => chosen.has(c.with));
    box.disabled = Boolean(clash) && !box.checked;
    box.parentNode.classList.toggle("clashes", box.disabled);
    box.parentNode.querySelector(".why-not").textContent = box.disabled ? " Not with this choice: " + clash.reason : "";
  }
}

async function listRooms() {
  let rooms = [];
  try { rooms = (await (await fetch("/api/rooms")).json()).rooms || []; } catch (e) { return; }
  const list = $("room-list"); list.replaceChildren();
  for (const r of rooms) {
    const li = el("li");
    const a = el("a", "", `Room ${r.code}`); a.href = "?room=" + encodeURIComponent(r.code);
    const who = r.names.length ? r.names.join(", ") : "nobody yet";
    const house = r.house_rules.length ? "; " + r.house_rules.join(", ") : "";
    li.append(a, el("span", "", ` ${r.variant}${house}${r.match ? "; a match" : ""}: ${who}, ${r.free} free seat${r.free === 1 ? "" : "s"}`));
    list.appendChild(li);
  }
  $("open-rooms").hidden = !rooms.length;
}

// --- a room --------------------------------------------------------------------------------

async function room() {
  const answer = await fetch("/api/rooms/" + encodeURIComponent(code));
  const info = await answer.json();
  if (!answer.ok) { $("lobby").hidden = false; $("make-error").textContent = `Room ${code}: ${info.error}`; lobby(); return; }
  colors = info.room.colors;
  $("variant").textContent = info.room.variant;
  $("code").textContent = code; $("join-code").textContent = code; $("share").hidden = false;
  $("house-line").textContent = houseLine(info.room);
  $("rulebook").textContent = info.rulebook; $("rules").hidden = false;
  shareLink(info.addresses || []);
  const token = localStorage.getItem("unodsl-seat-" + code);
  if (token) { connect({ type: "join", token }); return; }
  $("join").hidden = false;
  $("take").onsubmit = (event) => { event.preventDefault(); connect({ type: "join", name: $("name").value }); };
  $("watch").onclick = () => connect({ type: "watch" });
}

function shareLink(addresses) {
  // The link by the address this page was reached at: the one the others can reach too. Reached at
  // this computer's own name (127.0.0.1), the server's address on the home network, when it has one.
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(location.hostname);
  const origin = local && addresses.length ? addresses[0] : location.origin;
  const link = origin + "/?room=" + encodeURIComponent(code);
  $("link").value = link;
  $("link").size = link.length;
  const shown = (said) => { $("copied").textContent = said; };
  const lonely = local && !addresses.length;
  $("copy").onclick = async () => {
    $("link").focus(); $("link").select();
    try {
      if (navigator.clipboard && window.isSecureContext) await navigator.clipboard.writeText(link);
      else if (!document.execCommand("copy")) throw new Error("no clipboard");
      shown("copied" + (lonely ? " (this address works on this computer only: see docs/play.md for a home network)" : ""));
    } catch (e) {
      shown("select the link and copy it");
    }
  };
}

function houseLine(info) {
  const house = info.house_rules.length ? "house rules: " + info.house_rules.join(", ") : "no house rules";
  const rulings = Object.entries(info.rulings).map(([k, v]) => `${k} = ${v}`);
  return house + (rulings.length ? "; rulings: " + rulings.join(", ") : "") + (info.match ? "; a match" : "")
    + (info.turn_timer ? `; ${info.turn_timer} s a move` : "");
}

function connect(hello) {
  socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/" + code);
  socket.onopen = () => { retry = 0; document.body.classList.remove("offline"); socket.send(JSON.stringify(hello)); };
  socket.onmessage = (event) => receive(JSON.parse(event.data), hello);
  socket.onclose = () => {
    if (hello.type === "join" && !localStorage.getItem("unodsl-seat-" + code)) return;
    $("error").textContent = "connection lost: reconnecting...";
    document.body.classList.add("offline");          // nothing to send to until it is back
    const again = hello.type === "join" ? { type: "join", token: localStorage.getItem("unodsl-seat-" + code) } : hello;
    setTimeout(() => connect(again), Math.min(5000, 500 * 2 ** retry++));
  };
}

function receive(message, hello) {
  if (message.type === "joined") {
    localStorage.setItem("unodsl-seat-" + code, message.token);
  } else if (message.type === "error") {
    if (hello.type === "join" && hello.token && !view) {      // a token this room does not know: start afresh
      localStorage.removeItem("unodsl-seat-" + code);
    }
    $("error").textContent = message.message;
    if (!view) { $("join").hidden = false; }
  } else if (message.type === "view") {
    $("error").textContent = "";
    view = message;
    render();
  }
}

function nameOf(q) {
  const s = view.room.seats[q];
  return q === view.seat ? "you" : (s && s.name) || `player ${q + 1}`;
}

function send(action) {
  $("error").textContent = "";
  socket.send(JSON.stringify({ type: "act", action, version: view.version }));
}

function render() {
  $("join").hidden = true; $("table").hidden = false;
  document.body.dataset.version = view.version;        // what tests wait on
  document.body.dataset.seat = view.seat;
  const me = view.seat;
  const seats = $("seats"); seats.replaceChildren();
  for (const s of view.room.seats) {
    const li = el("li", (s.seat === me ? "me " : "") + (s.seat === view.deciding ? "deciding" : ""));
    li.appendChild(el("span", "name", `${s.name || "(free seat)"}${s.seat === me ? " (you)" : ""}`));
    li.appendChild(document.createTextNode(view.started ? ": " : ""));
    if (view.started) li.appendChild(el("span", "count", `${s.cards} card${s.cards === 1 ? "" : "s"}`));
    if (s.uno) li.appendChild(el("span", "badge", `${view.words.call}!`));
    if (s.away) li.appendChild(el("span", "badge away", s.autoplayed ? "away: a bot plays" : "away"));
    if (s.out) li.appendChild(el("span", "badge away", "knocked out"));
    if (s.dealer) li.appendChild(el("span", "badge away", "dealer"));
    seats.appendChild(li);
  }
  $("waiting").hidden = view.started || me < 0;
  $("start").onclick = () => socket.send(JSON.stringify({ type: "start" }));
  renderChat();
  $("middle").hidden = !view.started;
  if (!view.started) { $("prompt").textContent = "Waiting for players..."; $("over").hidden = true; return; }
  $("top").replaceWith(Object.assign(card(view.top || "none"), { id: "top" }));
  const facts = $("facts"); facts.replaceChildren();
  const fact = (label, value) => { const p = el("div", "", label + ": "); p.appendChild(el("b", "", value)); facts.appendChild(p); };
  fact("color", view.color || "any");
  if (view.color) facts.lastChild.lastChild.className = "w-" + view.color;
  fact("direction", view.words ? view.words.direction : view.direction >= 0 ? "clockwise" : "counterclockwise");
  fact("draw pile", String(view.draw_pile));
  for (const [name, pile] of Object.entries(view.play_piles || {})) {     // a pile played on: its top and color
    fact(`${name} pile`, (pile.top ? pile.top.replace(/_/g, " ") : "empty") + (pile.color ? ` (${pile.color})` : ""));
  }
  for (const line of view.piles || []) { const at = line.indexOf(": "); fact(line.slice(0, at), line.slice(at + 2)); }
  if (view.stack) fact("draw stack", String(view.stack));
  if (view.lock) fact("locked to", view.lock);
  if (view.round > 1) fact("round", String(view.round));
  for (const line of (view.words && view.words.seen) || []) { const at = line.indexOf(": "); fact(line.slice(0, at), line.slice(at + 2)); }
  for (const line of view.variables || []) { const at = line.indexOf(": "); fact(line.slice(0, at), line.slice(at + 2)); }
  renderHand();
  renderChoices();
  const log = $("log"); log.replaceChildren();
  const fresh = lastTotal ? view.log_total - lastTotal : 0;       // lines since the last view, in bold
  view.log.forEach((line, i) => log.appendChild(colored(el("li", i >= view.log.length - fresh ? "new" : ""), line)));
  log.scrollTop = log.scrollHeight;
  lastTotal = view.log_total;
  renderRounds();
  renderOver();
}

function renderRounds() {
  // A match: each round's points and the totals, a column a player, by name.
  const rounds = view.rounds || [];
  $("rounds").hidden = !(view.room.match && rounds.length);
  if ($("rounds").hidden) return;
  const row = (cells, tag) => { const tr = el("tr"); for (const c of cells) tr.appendChild(el(tag, "", String(c))); return tr; };
  $("rounds").tHead.replaceChildren(row(["round", ...view.room.seats.map((s) => nameOf(s.seat))], "th"));
  const body = $("rounds").tBodies[0]; body.replaceChildren();
  rounds.forEach((after, i) => {
    const before = i ? rounds[i - 1] : after.map(() => 0);
    body.appendChild(row([i + 1, ...after.map((a, q) => a - before[q])], "td"));
  });
  const total = row(["total", ...rounds[rounds.length - 1]], "td"); total.className = "total";
  body.appendChild(total);
}

function renderOver() {
  // The end of a game: who won, each player's cards left and points, and the room's games won so far.
  $("over").hidden = !view.over;
  if (!view.over) return;
  const w = view.winner;
  $("over-title").textContent = w === null ? "Game over: no winner" : w === view.seat ? "You win!" : `${nameOf(w)} wins`;
  const wins = view.room.seats.map((s) => view.results.filter((r) => r.winner === s.seat).length);
  const head = $("score-screen").tHead; head.replaceChildren();
  const hr = el("tr");
  for (const h of ["player", "cards left", "points", "games won here"]) hr.appendChild(el("th", "", h));
  head.appendChild(hr);
  const body = $("score-screen").tBodies[0]; body.replaceChildren();
  for (const s of view.room.seats) {
    const tr = el("tr", s.seat === w ? "winner" : "");
    for (const cell of [s.name + (s.seat === view.seat ? " (you)" : ""), String(s.cards),
                        String(view.scores[s.seat]), String(wins[s.seat])]) tr.appendChild(el("td", "", cell));
    body.appendChild(tr);
  }
  $("rematch").hidden = view.seat < 0;
  $("rematch").onclick = () => socket.send(JSON.stringify({ type: "rematch", game: view.game }));   // once, if two ask
  $("new-room").onclick = () => { location.href = "/"; };
}

function renderChat() {
  $("chat").hidden = false;
  const mine = view.seat >= 0;
  $("say").hidden = !mine; $("reactions").hidden = !mine;
  if (mine && !$("reactions").childElementCount) {
    for (const r of REACTIONS) {
      const b = el("button", "reaction", r); b.type = "button";
      b.onclick = () => socket.send(JSON.stringify({ type: "chat", text: r }));
      $("reactions").appendChild(b);
    }
    $("say").onsubmit = (event) => {
      event.preventDefault();
      const text = $("chat-text").value.trim();
      if (text) socket.send(JSON.stringify({ type: "chat", text }));
      $("chat-text").value = "";
    };
  }
  const lines = $("chat-lines"); lines.replaceChildren();
  for (const c of view.chat || []) {
    const li = el("li");
    li.append(el("b", "", (c.seat === view.seat ? "you" : c.name) + ": "), document.createTextNode(c.text));
    lines.appendChild(li);
  }
  lines.scrollTop = lines.scrollHeight;
}

function renderHand() {
  const hand = $("hand"); hand.replaceChildren();
  if (!view.hand) return;
  const playable = new Map();
  for (const c of view.choices || []) {
    const m = /^(?:play|give) (\S+)( uno)?$/.exec(c);
    if (m && !playable.has(m[1])) playable.set(m[1], c);      // the first choice of a card: with UNO when offered
  }
  for (const group of view.hand) {
    const g = el("div", "group");
    for (const name of group) {
      const b = card(name, "button");
      if (playable.has(name)) { b.classList.add("playable"); b.onclick = () => send(playable.get(name)); }
      else b.disabled = !view.choices;
      g.appendChild(b);
    }
    hand.appendChild(g);
  }
}

function renderChoices() {
  const box = $("choices"); box.replaceChildren();
  const me = view.seat;
  clearInterval(countdown);
  if (view.over) {
    const w = view.winner;
    $("prompt").textContent = w === null ? "Game over: no winner." : w === me ? "You win!" : `${nameOf(w)} wins.`;
    return;
  }
  if (!view.choices) {
    const name = nameOf(view.deciding);
    $("prompt").textContent = me < 0 ? `Watching: ${name} decides.` : `Waiting for ${name}...`;
    return;
  }
  const drawn = view.words && view.words.drawn ? view.words.drawn : view.drawn;
  const said = "Your move: " + view.help + (drawn ? ` (you drew ${drawn})` : "");
  $("prompt").textContent = said;
  if (view.time_left !== undefined) {        // the turn timer: a bot decides for you when it runs out
    const ends = Date.now() + view.time_left * 1000;
    const tick = () => { $("prompt").textContent = `${said} (${Math.max(0, Math.ceil((ends - Date.now()) / 1000))} s left)`; };
    tick(); countdown = setInterval(tick, 1000);
  }
  view.choices.forEach((c, i) => {
    const b = el("button", / uno( on \S+)?$/.test(c) || c === "uno" ? "uno" : "");
    if (i < 9) b.appendChild(el("span", "key", String(i + 1)));
    b.appendChild(document.createTextNode(choiceLabel(c, i)));
    const color = /^color (\S+)$/.exec(c);
    if (color) b.classList.add("color", color[1]);
    b.onclick = () => send(c);
    box.appendChild(b);
  });
}

function choiceLabel(choice, i) {
  const someone = /^(target|catch) (\d+)$/.exec(choice);       // a player: by seat and name
  if (someone) return `${someone[1]} ${nameOf(Number(someone[2]))}`;
  if (view.words && view.words.choices) return view.words.choices[i];     // the narration's words ("play Red 7")
  return choice.replace(/ uno$/, " + call UNO").replace(/_/g, " ");
}

document.addEventListener("keydown", (event) => {
  if (!view || !view.choices || event.target.tagName === "INPUT") return;
  const choices = view.choices;
  const pick = (test) => { const c = choices.find(test); if (c) send(c); };
  if (/^[1-9]$/.test(event.key) && Number(event.key) <= choices.length) send(choices[Number(event.key) - 1]);
  else if (event.key === "d") pick((c) => c === "draw" || c === "keep" || c === "pass");
  else if (event.key === "u") pick((c) => c === "uno" || c.endsWith(" uno"));
  else if (event.key === "c") pick((c) => c === "challenge");
  else if (event.key === "a") pick((c) => c === "accept");
});

if (code) room(); else lobby();
