"""The viewer's page: one HTML document with its CSS and JavaScript inline (nothing is fetched from anywhere).

``VIEWER_PAGE`` has placeholders such as ``__TITLE__`` (HTML-escaped text) and ``__GAME_DATA__`` (JSON with every
``<`` escaped, so no card or seat name can close the script element), filled in one pass by :func:`fill`, which
never looks inside what it substituted. The script draws every value with ``textContent``, never as HTML.
"""

from __future__ import annotations

import re

_PLACEHOLDER = re.compile(r"__([A-Z_]+?)__")


def fill(template: str, **values: str) -> str:
    """``template`` with each ``__NAME__`` replaced by ``values["NAME"]`` in one pass: text substituted is never
    searched again, so data holding a placeholder's name stays data. A placeholder without a value is an error."""
    missing = sorted(set(_PLACEHOLDER.findall(template)) - set(values))
    if missing:
        raise KeyError(f"template placeholders without a value: {missing}")
    return _PLACEHOLDER.sub(lambda match: values[match.group(1)], template)

STYLE = """
:root { --bg: #1d2b22; --panel: #2a3d30; --card: #f3ead2; --ink: #1b1b1b; --muted: #b9c7bb; --accent: #f2c14e; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.35 system-ui, sans-serif; background: var(--bg); color: #eef3ee; }
header { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 8px 12px; background: #14201a; }
header h1 { font-size: 16px; margin: 0 12px 0 0; }
header button { font: inherit; padding: 4px 12px; border-radius: 4px; border: 1px solid #6b8f74; background: var(--panel);
  color: inherit; cursor: pointer; }
header button:disabled { opacity: .4; cursor: default; }
#slider { flex: 1 1 240px; }
#step-label { min-width: 9em; font-variant-numeric: tabular-nums; }
main { display: grid; grid-template-columns: minmax(0, 1fr) 360px; gap: 12px; padding: 12px; }
#status { font-weight: 600; margin-bottom: 4px; }
#headline { color: var(--accent); margin-bottom: 8px; min-height: 1.3em; }
.side { background: var(--panel); border-radius: 8px; padding: 8px 10px; margin-bottom: 10px; }
.side.on-turn { outline: 2px solid var(--accent); }
.row { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; margin: 4px 0; }
.hero { font-weight: 600; }
.hero.defeated .hero-health { color: #ff7b7b; }
.tag { font-size: 12px; padding: 0 6px; border-radius: 8px; background: #44614c; }
.tag.bad { background: #8a2e2e; }
.label { color: var(--muted); }
.zone { display: flex; flex-wrap: wrap; gap: 6px; min-height: 64px; align-items: flex-start; }
.card { width: 104px; min-height: 64px; padding: 4px 6px; border-radius: 6px; background: var(--card); color: var(--ink);
  font-size: 12px; position: relative; }
.card .name { font-weight: 600; display: block; margin-right: 18px; }
.card .cost { position: absolute; top: 3px; right: 4px; background: #2f5fae; color: #fff; border-radius: 50%;
  width: 17px; height: 17px; text-align: center; font-size: 11px; line-height: 17px; }
.card .stats { font-weight: 700; }
.card .attack { color: #9a5b00; } .card .health { color: #b01e1e; }
.card .keywords { display: block; font-style: italic; color: #44604c; }
.card .kind { display: block; color: #555; }
.card.marked { opacity: 0.5; outline: 2px dashed #a33; }
.minion.sleeping { opacity: .75; } .minion.frozen { background: #cfe6ff; }
.hidden-card { width: 40px; height: 56px; border-radius: 6px; background: repeating-linear-gradient(45deg,#3c5a86,#3c5a86 6px,#33507a 6px,#33507a 12px); }
#log-panel { background: var(--panel); border-radius: 8px; padding: 8px 10px; max-height: 80vh; overflow: auto; }
#log-panel h2 { font-size: 14px; margin: 0 0 6px; }
#log { list-style: none; margin: 0; padding: 0; font-size: 13px; }
#log li { padding: 1px 0; border-left: 2px solid transparent; }
#log li[data-depth="0"] { font-weight: 600; color: var(--accent); }
.error { max-width: 720px; margin: 40px auto; background: #5a1f1f; border-radius: 8px; padding: 16px 20px; }
.error code { white-space: pre-wrap; word-break: break-word; }
"""

BOARD_SCRIPT = """
"use strict";
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function cardNode(card, extraClass) {
  const node = el("div", "card " + (extraClass || ""));
  node.dataset.uid = card.uid;
  node.append(el("span", "name", card.name), el("span", "cost", card.cost));
  if (card.type === "minion") {
    const stats = el("span", "stats");
    stats.append(el("span", "attack", card.attack), "/", el("span", "health", card.health));
    node.append(stats);
  } else if (card.type === "weapon") {
    const stats = el("span", "stats");
    stats.append(el("span", "attack", card.attack), "/", el("span", "durability", card.durability));
    node.append(stats);
  } else {
    node.append(el("span", "kind label", card.type));
  }
  const tags = card.keywords.slice();
  if (card.sleeping) tags.push("sleeping");
  if (card.frozen) tags.push("frozen");
  if (tags.length) node.append(el("span", "keywords", tags.join(", ")));
  if (card.text) node.title = card.text;
  return node;
}

function minionNode(card) {
  const node = cardNode(card, "minion" + (card.sleeping ? " sleeping" : "") + (card.frozen ? " frozen" : ""));
  if (card.health < card.max_health) node.querySelector(".health").classList.add("damaged");
  return node;
}

function sideNode(side, frame, place) {
  const node = el("section", "side" + (frame.current === side.seat && !frame.over ? " on-turn" : ""));
  node.dataset.seat = side.seat;
  node.dataset.place = place;
  const hero = side.hero;
  const heroRow = el("div", "row hero" + (hero.defeated ? " defeated" : ""));
  heroRow.dataset.uid = hero.uid;
  heroRow.append(el("span", "hero-name", side.name + " (seat " + side.seat + ")"));
  const health = el("span", "label", "health ");
  health.append(el("span", "hero-health", hero.health), "/" + hero.max_health);
  heroRow.append(health);
  if (hero.defeated) heroRow.append(el("span", "tag bad defeated-tag", "defeated"));
  const armor = el("span", "label", "armor ");
  armor.append(el("span", "hero-armor", hero.armor));
  heroRow.append(armor);
  const attack = el("span", "label", "attack ");
  attack.append(el("span", "hero-attack", hero.attack));
  heroRow.append(attack);
  if (hero.frozen) heroRow.append(el("span", "tag", "frozen"));
  if (hero["class"] && hero["class"] !== "neutral") heroRow.append(el("span", "tag hero-class", hero["class"]));
  node.append(heroRow);

  const info = el("div", "row");
  const mana = el("span", "label", "mana ");
  mana.append(el("span", "mana", side.mana + "/" + side.max_mana));
  const weapon = el("span", "label", "weapon ");
  weapon.append(el("span", "weapon", side.weapon ? side.weapon.name + " " + side.weapon.attack + "/" +
                                                 side.weapon.durability : "none"));
  const power = el("span", "label", "hero power ");
  const hp = side.hero_power;
  const powerText = hp ? hp.name + " (" + hp.cost + ")" + (hp.uses >= hp.uses_per_turn ? " used" : "") : "none";
  const powerNode = el("span", "hero-power", powerText);
  if (hp) { powerNode.title = hp.text; powerNode.dataset.uid = hp.uid; }  // clickable in the play page
  power.append(powerNode);
  const deck = el("span", "label", "deck ");
  deck.append(el("span", "deck-size", side.deck_size));
  const hand = el("span", "label", "hand ");
  hand.append(el("span", "hand-size", side.hand_size));
  const secrets = el("span", "label", "secrets ");
  secrets.append(el("span", "secret-count", side.secret_count));
  if (side.secrets && side.secrets.length) secrets.append(" (" + side.secrets.join(", ") + ")");
  info.append(mana, weapon, power, deck, hand, secrets);
  if (side.fatigue) info.append(el("span", "label", "fatigue " + side.fatigue));
  node.append(info);

  const board = el("div", "zone battlefield");
  for (const card of side.battlefield) board.append(minionNode(card));
  if (!side.battlefield.length) board.append(el("span", "label", "(no minions)"));
  const handZone = el("div", "zone hand");
  if (side.hand === null) {
    for (let i = 0; i < side.hand_size; i++) handZone.append(el("div", "hidden-card"));
  } else {
    for (const card of side.hand) {
      const marked = side.marked && side.marked.includes(card.uid);  // to be put back in the mulligan
      handZone.append(cardNode(card, marked ? "hand-card marked" : "hand-card"));
    }
  }
  if (!side.hand_size) handZone.append(el("span", "label", "(empty hand)"));
  const handTitle = el("div", "label", "hand");
  const boardTitle = el("div", "label", "battlefield");
  // the top side shows its hand above its board, the bottom side below: both boards meet in the middle
  if (place === "top") node.append(handTitle, handZone, boardTitle, board);
  else node.append(boardTitle, board, handTitle, handZone);
  return node;
}

function statusText(frame) {
  if (frame.over) {
    if (frame.winner === null) return "Game over: " + frame.result.replace("_", " ");
    return "Game over: " + frame.sides[frame.winner].name + " (seat " + frame.winner + ") wins";
  }
  const side = frame.sides[frame.current];
  const whose = side.name === "you" ? "Your" : side.name + "'s";  // "you" is the person's seat name
  if (frame.mulligan) return whose + " mulligan: choosing opening cards to put back";
  return whose + " turn " + frame.player_turn + " (game turn " + frame.turn + ")";
}

"""

SCRIPT = BOARD_SCRIPT + """
const frames = JSON.parse(document.getElementById("game-data").textContent);
const slider = document.getElementById("slider");
let step = 0;

function render() {
  const frame = frames[step];
  slider.value = step;
  document.getElementById("step-label").textContent = "step " + step + " / " + (frames.length - 1);
  document.getElementById("prev").disabled = step === 0;
  document.getElementById("next").disabled = step === frames.length - 1;
  document.getElementById("status").textContent = statusText(frame);
  document.getElementById("headline").textContent = frame.headline;
  const bottom = document.body.dataset.seat === "1" ? 1 : 0;  // a spectator sees seat 0 at the bottom
  document.getElementById("board").replaceChildren(
    sideNode(frame.sides[1 - bottom], frame, "top"), sideNode(frame.sides[bottom], frame, "bottom"));
  const log = document.getElementById("log");
  log.replaceChildren();
  for (const line of frame.log) {
    const item = el("li", "", line.text);
    item.dataset.depth = line.depth;
    item.style.paddingLeft = (line.depth * 14) + "px";
    log.append(item);
  }
}

function go(to) {
  step = Math.max(0, Math.min(frames.length - 1, to));
  render();
  history.replaceState(null, "", "#step=" + step);  // a link to this step
}

slider.max = frames.length - 1;
slider.addEventListener("input", () => go(Number(slider.value)));
document.getElementById("prev").addEventListener("click", () => go(step - 1));
document.getElementById("next").addEventListener("click", () => go(step + 1));
document.getElementById("first").addEventListener("click", () => go(0));
document.getElementById("last").addEventListener("click", () => go(frames.length - 1));
document.addEventListener("keydown", (event) => {
  if (event.target === slider) return;  // the slider moves itself with the arrow keys
  if (event.key === "ArrowLeft") { go(step - 1); event.preventDefault(); }
  else if (event.key === "ArrowRight") { go(step + 1); event.preventDefault(); }
  else if (event.key === "Home") { go(0); event.preventDefault(); }
  else if (event.key === "End") { go(frames.length - 1); event.preventDefault(); }
});
const linked = /step=(\\d+)/.exec(location.hash);
go(linked ? Number(linked[1]) : 0);
"""

VIEWER_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>__TITLE__</title>
<style>__STYLE__</style>
</head>
<body data-seat="__SEAT__">
<header>
  <h1>__TITLE__</h1>
  <button id="first" type="button" title="first step (Home)">first</button>
  <button id="prev" type="button" title="previous step (left arrow)">&#x25C0; prev</button>
  <input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
  <button id="next" type="button" title="next step (right arrow)">next &#x25B6;</button>
  <button id="last" type="button" title="last step (End)">last</button>
  <span id="step-label"></span>
</header>
<main>
  <div>
    <div id="status"></div>
    <div id="headline"></div>
    <div id="board"></div>
  </div>
  <aside id="log-panel"><h2>This step's actions and reactions</h2><ul id="log"></ul></aside>
</main>
<script type="application/json" id="game-data">__GAME_DATA__</script>
<script>__SCRIPT__</script>
</body>
</html>
"""

ERROR_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>ccg-env: cannot show this game</title>
<style>__STYLE__</style>
</head>
<body>
<div class="error" id="error">
  <h1>Cannot show this game</h1>
  <p><code id="error-message">__MESSAGE__</code></p>
  <p>__HINT__</p>
</div>
</body>
</html>
"""
