// The play page: a game against the bots (POST /v1/play, docs/play.md), hints by the
// analysis of the decision due (POST /v1/analyse), the value of the position beside the
// board (POST /v1/value) and the review at the end (POST /v1/review). Every answer comes
// through ask(): from the engine in this browser, so the static site alone plays a whole
// game. The page holds the game and sends it back with every move.
import {ask, where} from './ask.mjs';
import {drawBoard} from './board.mjs';
import {$, BusyBar, el, keepOffline, pageData, problemLines} from './dom.mjs';
import {boardOf, drawReview} from './review.mjs';
import {makeWords, signed, withInterval} from './words.mjs';

const NAMES = pageData('names');
const PLAY = pageData('play-options');
const W = makeWords(NAMES);
const params = new URLSearchParams(location.search);
// Milliseconds between the others' log lines (speed=0: no animation, for tests).
const STEP = params.has('speed') ? Math.max(0, Number(params.get('speed')) || 0) : 220;
// Seconds of rollouts for a hint, and the review's rollouts (smaller: sooner, rougher).
const HINT_SECONDS = params.has('hint') ? Number(params.get('hint')) : 2;
const REVIEW_ROLLOUTS = params.has('review') ? Number(params.get('review')) : null;
const SAVED = 'manila-play';  // localStorage: the game in progress and the boards of its decisions
const sleep = ms => new Promise(r => setTimeout(r, ms));

let current = null;   // the last answer of the play route
let boards = {};      // history index -> the player's view at each of their decisions
let setup = {players: 4, human: 0, bots: []};
const busy = new BusyBar($('#busy'));

function state(s) { document.body.dataset.state = s; }

const who = owner => {
  const you = current ? current.you : 'p' + setup.human;
  return {text: owner === you ? 'you' : owner, cls: owner};
};

// ---------------------------------------------------------------- set-up

function renderSetup() {
  const players = $('#players');
  players.replaceChildren();
  for (const n of PLAY.players) {
    players.append(el('button', {type: 'button', 'aria-pressed': String(n === setup.players), 'data-players': n,
      text: String(n), onclick: () => { setup.players = n; setup.human = Math.min(setup.human, n - 1); renderSetup(); }}));
  }
  const seat = $('#seat');
  seat.replaceChildren();
  for (let p = 0; p < setup.players; p++) {
    seat.append(el('button', {type: 'button', 'aria-pressed': String(p === setup.human), 'data-seat': p,
      text: 'p' + p, onclick: () => { setup.human = p; renderSetup(); }}));
  }
  const bots = $('#bots');
  bots.replaceChildren();
  let k = 0;
  for (let p = 0; p < setup.players; p++) {
    if (p === setup.human) continue;
    const i = k++;
    const select = el('select', {id: 'bot-' + p, 'aria-label': 'bot of p' + p});
    for (const name of PLAY.bots) select.append(el('option', {value: name, text: name}));
    select.value = setup.bots[i] || PLAY.default_bot;
    select.addEventListener('change', () => { setup.bots[i] = select.value; });
    setup.bots[i] = select.value;
    bots.append(el('div', {class: 'row'}, el('label', {for: 'bot-' + p, text: 'p' + p + ' is'}), select));
  }
  setup.bots.length = setup.players - 1;
  const saved = readSaved();
  $('#resume').hidden = !saved;
  state('setup');
}

function randomSeed() { $('#seed').value = String(Math.floor(Math.random() * 1e9)); }

// ---------------------------------------------------------------- playing

async function play(body, text) {
  const job = busy.start(text);
  try {
    const res = await ask('play', body, job);
    if (res.status !== 200) throw new Error(problemLines(res.body, res.status).join('; '));
    return res.body;
  } finally {
    job.done();
  }
}

async function send(body, fresh) {
  if (document.body.dataset.state === 'busy') return;
  state('busy');
  setChoicesEnabled(false);
  try {
    let data = await play(body, 'The others are playing…');
    await show(data, fresh);
    while (data.pending) {  // a server's bots stopped at its time limit: go on
      data = await play({game: data.game}, 'The others are playing…');
      await show(data, false);
    }
    settle();
  } catch (err) {
    if (err.name === 'AbortError') {
      $('#hint-text').replaceChildren(el('p', {class: 'muted', text: 'Stopped. Tap your move again to go on.'}));
    } else {
      $('#hint-text').replaceChildren(el('p', {class: 'error', role: 'alert', text: String(err.message || err)}));
      if (!current) $('#setup-error').textContent = String(err.message || err);
    }
    if (current) { setChoicesEnabled(true); settle(); } else state('setup');
  }
}

function settle() {
  if (!current) return;
  state(current.terminal ? 'end' : (current.legal_actions.length ? 'decide' : 'waiting'));
}

async function show(data, fresh) {
  current = data;
  document.body.dataset.phase = data.phase;
  if (fresh) boards = (readSaved() || {}).check === data.game.check ? readSaved().boards : {};
  if (data.legal_actions.length) boards[data.game.history.length] = data.view;
  save();
  $('#setup').hidden = true;
  $('#game').hidden = false;
  $('#save').hidden = $('#new').hidden = false;
  if (fresh) $('#log').replaceChildren();
  renderTable(data);
  $('#decision').hidden = data.terminal;
  showDue(data.legal_actions.length ? '' : 'The others are playing…');
  $('#choices').replaceChildren();
  $('#hint-text').replaceChildren();
  const log = $('#log');
  for (const line of data.log) {
    const settlement = /^(voyage|paid|prices|insurance|game over)/.test(line);
    log.append(el('li', {class: (fresh || STEP === 0 ? '' : 'new ') + (settlement ? 'settle' : ''), text: line}));
    log.scrollTop = log.scrollHeight;  // the list scrolls, not the page
    if (!fresh && STEP > 0 && !line.startsWith('you ')) await sleep(Math.min(STEP, 1600 / data.log.length));
  }
  if (data.terminal) { showEnd(data); return; }
  if (data.legal_actions.length) { renderChoices(data); showValue(data); }
  layout();
}

function renderTable(data) {
  const v = data.view;
  const phase = W.kind(data.phase === 'buy_share' || data.phase === 'choose_goods' || data.phase === 'place_boats'
    ? 'harbour_master' : data.phase);
  const hm = v.harbour_master === null || v.harbour_master === undefined ? '' : ' · harbour master ' + who('p' + v.harbour_master).text;
  $('#status').textContent = (data.voyage ? 'Voyage ' + data.voyage + ' · ' : '') + phase + hm;
  const wealth = $('#wealth');
  wealth.replaceChildren();
  // Once the game is over every share is shown: the face-down ones are revealed.
  const shown = data.final && data.final.shares ? data.final.shares : null;
  const top = Math.max(1, ...v.players.map((p, i) => (data.final ? data.final.wealth[i] : (p.wealth ?? p.cash))));
  v.players.forEach((p, i) => {
    const name = 'p' + i;
    const w = data.final ? data.final.wealth[i] : p.wealth;
    const held = shown ? shown[i] : p.shares;
    const shares = NAMES.goods.filter(g => held[g]).map(g => g + ' ' + held[g]).join(', ');
    const bits = [p.cash + ' cash'];
    if (shares) bits.push(shares);
    if (!shown && p.hidden_shares) bits.push(p.hidden_shares + ' face down');
    if (p.mortgaged) bits.push(p.mortgaged + ' mortgaged');
    bits.push(w === null || w === undefined ? 'wealth ?' : 'wealth ' + w);
    const bar = el('span', {class: 'bar'}, el('i', {style: `width:${Math.round((100 * (w ?? p.cash)) / top)}%;background:var(--${name})`}));
    wealth.append(el('div', {class: 'player' + (data.to_move === name ? ' tomove' : ''), 'data-player': name},
      el('span', {class: 'who ' + name, text: name === data.you ? name + ' (you)' : name + ' · ' + data.bots[name]}),
      el('span', {class: 'muted shares', text: bits.join(' · ')}), bar,
      el('span', {class: 'value', 'data-player': name})));
  });
  const me = v.players[v.observer];
  const yours = $('#yours');
  yours.replaceChildren();
  const down = {};
  for (const g of data.face_down || []) down[g] = (down[g] || 0) + 1;
  for (const g of NAMES.goods) {
    if (!me.shares[g]) continue;
    const d = down[g] ? ` (${down[g]} face down)` : '';
    yours.append(el('div', {text: W.cap(g) + ' × ' + me.shares[g] + d + ' · price ' + v.prices[g]}));
  }
  if (!yours.children.length) yours.append(el('div', {class: 'muted', text: 'none yet'}));
  $('#board').replaceChildren(drawBoard(NAMES, boardOf(v), who));
}

// ---------------------------------------------------------------- the value beside the board

let valueJob = null;

async function showValue(data) {
  if (valueJob) valueJob.abort();
  const job = new AbortController();
  valueJob = job;
  $('#value-note').textContent = 'valuing…';
  let res;
  try {
    res = await ask('value', {table: data.view, rollouts: 64, seed: data.game.history.length}, {signal: job.signal});
  } catch (err) {
    return;  // a newer position is being valued
  }
  if (valueJob !== job || current !== data) return;
  valueJob = null;
  if (res.status !== 200) { $('#value-note').textContent = 'No value: ' + problemLines(res.body, res.status).join('; '); return; }
  for (const [p, v] of Object.entries(res.body.players)) {
    const box = document.querySelector(`#wealth .value[data-player="${p}"]`);
    if (!box) continue;
    box.dataset.win = String(v.win);
    box.dataset.equity = String(v.equity);
    box.replaceChildren(
      el('span', {class: 'winbar', 'aria-hidden': 'true'}, el('i', {style: `width:${(100 * v.win).toFixed(1)}%;background:var(--${p})`})),
      el('span', {class: 'muted', text: `wins ${(100 * v.win).toFixed(0)}% · equity ${signed(v.equity, 1)}`}));
  }
  $('#value-note').textContent = `Equity: expected final wealth minus the others' mean; learned from games of ${res.body.policy}.`;
}

// ---------------------------------------------------------------- the decision

const DUE = {
  auction: 'Bid for harbour master, or pass', buy_share: 'Buy a share (harbour master)',
  choose_goods: 'Which good stays home?', place_boats: "The boats' start spaces", placement: 'Place an accomplice',
  small_pilot: 'Small pilot: move a boat', large_pilot: 'Large pilot: move the boats', boarding: 'Pirate: board a boat?',
  plunder: 'Pirates: where do the plundered boats go?',
};

function showDue(text) { $('#due').textContent = text || DUE[current && current.phase] || 'Your move'; }

function renderChoices(data) {
  showDue();
  const box = $('#choices');
  box.replaceChildren();
  const names = data.legal_actions;
  const bids = names.filter(n => /^bid \d+$/.test(n)).map(n => Number(n.split(' ')[1]));
  if (bids.length) {
    let bid = bids[0];
    const out = el('output', {id: 'bid-value', text: String(bid)});
    const bidButton = el('button', {type: 'button', class: 'primary', 'data-action': 'bid ' + bid,
      onclick: () => act(bidButton.dataset.action)}, 'Bid ' + bid);
    const set = b => {
      bid = Math.max(bids[0], Math.min(bids[bids.length - 1], b));
      out.textContent = String(bid);
      bidButton.dataset.action = 'bid ' + bid;
      bidButton.textContent = 'Bid ' + bid;
    };
    box.append(el('div', {class: 'stepper'},
      el('button', {type: 'button', id: 'bid-down', 'aria-label': 'bid less', text: '−', onclick: () => set(bid - 1)}), out,
      el('button', {type: 'button', id: 'bid-up', 'aria-label': 'bid more', text: '+', onclick: () => set(bid + 1)}), bidButton));
  }
  const loans = n => n === 'mortgage' || n === 'repay';
  for (const name of [...names.filter(n => !loans(n)), ...names.filter(loans)]) {
    if (/^bid \d+$/.test(name)) continue;
    const [title, note] = W.action(name, data.view);
    box.append(el('button', {type: 'button', class: loans(name) ? 'loan' : '', 'data-action': name, onclick: () => act(name)},
      title, el('span', {class: 'value', 'data-note': note, text: note})));
  }
  setChoicesEnabled(true);
}

function setChoicesEnabled(on) {
  for (const b of document.querySelectorAll('#choices button, #hint')) b.disabled = !on;
}

function act(name) { send({game: current.game, action: name}, false); }

// ---------------------------------------------------------------- the hint

async function askHint() {
  if (!current || document.body.dataset.state !== 'decide') return;
  state('hinting');
  const data = current;
  $('#hint-text').replaceChildren();
  const job = busy.start('Thinking…');
  let res = null;
  try {
    // Horizon "game": equity, the unit in which an office or a share pays back (part 6).
    res = await ask('analyse', {table: data.view, horizon: 'game', time_limit: HINT_SECONDS,
                                seed: data.game.history.length}, job);
  } catch (err) {
    $('#hint-text').replaceChildren(el('p', {class: 'muted', text: 'Hint cancelled.'}));
  } finally {
    job.done();
  }
  if (current !== data) return;
  settle();
  if (!res) return;
  if (res.status !== 200) {
    $('#hint-text').replaceChildren(el('p', {class: 'error', role: 'alert', text: 'No hint: ' + problemLines(res.body, res.status).join('; ')}));
    return;
  }
  showHint(res.body, data);
}

function showHint(a, data) {
  const legal = data.legal_actions;
  const options = Object.entries(a.options).sort((x, y) => y[1].mean - x[1].mean);
  const unit = a.unit === 'equity' ? 'equity' : 'pesos';
  // Each button shows the value of the best option that begins with it.
  const onButton = {};
  for (const [name, o] of options) {
    const action = W.optionAction(name, legal);
    if (action && !(action in onButton)) onButton[action] = {name, o};
  }
  const best = W.optionAction(a.best, legal);
  for (const b of document.querySelectorAll('#choices button[data-action]')) {
    const shown = onButton[b.dataset.action];
    b.classList.toggle('best', b.dataset.action === best);
    const span = b.querySelector('.value');
    if (shown && span) {
      const note = span.dataset.note ? span.dataset.note + ' · ' : '';
      span.textContent = (b.dataset.action === best ? '★ best · ' : '') + note + withInterval(shown.o.mean, shown.o.ci95);
    }
  }
  if (best && best.startsWith('bid ')) {  // the stepper shows the bid to make now
    const target = Number(best.slice(4));
    while (Number($('#bid-value').textContent) < target) $('#bid-up').click();
    while (Number($('#bid-value').textContent) > target) $('#bid-down').click();
    document.querySelector('.stepper button.primary').classList.add('best');
  }
  const marked = document.querySelector('#choices button.best');
  if (marked) marked.scrollIntoView({block: 'nearest'});
  const box = $('#hint-text');
  box.replaceChildren();
  box.dataset.kind = a.kind;
  box.dataset.best = a.best;
  const b = a.options[a.best];
  box.append(el('p', {class: 'hint-best'}, 'Best: ', el('b', {text: W.option(a.best)}),
    ` (${withInterval(b.mean, b.ci95)} ${unit}` + (b.win !== undefined ? `, wins ${(100 * b.win).toFixed(0)}%` : '') + ')'));
  // The engine's own words for the auction's worth and the harbour master's choices, said
  // to the player (as the play route's hint says them).
  for (const line of (a.words_to_decider || []).filter(w => !w.startsWith('Best:'))) {
    box.append(el('p', {class: a.kind === 'auction' ? 'worth' : 'hint-words', text: line}));
  }
  const top = el('ol', {class: 'hint-options'});
  for (const [name, o] of options.slice(0, 5)) {
    top.append(el('li', {'data-option': name}, `${W.option(name)}: ${withInterval(o.mean, o.ci95)}`));
  }
  box.append(top);
  box.append(el('p', {class: 'muted', text: a.exact ? 'Exact.'
    : `Values in ${unit} to the end of the game, by ${a.rollouts} rollouts per option (± a 95% interval), the others playing ${a.policy}.`}));
  layout();
}

// ---------------------------------------------------------------- the end and the review

function showEnd(data) {
  $('#decision').hidden = true;
  $('#end').hidden = false;
  const f = data.final;
  $('#final').replaceChildren(
    el('p', {id: 'winners', text: (f.winners.includes(data.you) ? 'You win' : f.winners.map(p => who(p).text).join(' and ') +
      ' win' + (f.winners.length > 1 ? '' : 's')) + '.'}),
    el('p', {text: 'Final wealth: ' + f.wealth.map((w, i) => who('p' + i).text + ' ' + w).join(', ')}));
  layout();
  review(data);
}

async function review(data) {
  const box = $('#review');
  box.replaceChildren(el('p', {class: 'muted', text: 'Reviewing your game…'}));
  const body = {record: data.game, quick: true};
  if (REVIEW_ROLLOUTS) Object.assign(body, {rollouts: REVIEW_ROLLOUTS, luck_rollouts: REVIEW_ROLLOUTS});
  const job = busy.start('Reviewing your game…');
  let res;
  try {
    res = await ask('review', body, job);
  } catch (err) {
    box.replaceChildren(el('p', {class: 'muted', id: 'review-error', text: 'Review cancelled. '},
      el('button', {type: 'button', text: 'Review again', onclick: () => review(data)})));
    return;
  } finally {
    job.done();
  }
  if (current !== data) return;
  if (res.status !== 200) {
    box.replaceChildren(el('p', {class: 'error', id: 'review-error', text: 'No review: ' + problemLines(res.body, res.status).join('; ')}));
    return;
  }
  box.replaceChildren(drawReview(NAMES, W, res.body, {you: data.you, bots: data.bots, boards, who}));
}

// ---------------------------------------------------------------- save and load

// The game in progress, kept in this browser: a page closed by mistake goes on.
function save() {
  try { localStorage.setItem(SAVED, JSON.stringify({check: current.game.check, game: current.game, boards})); }
  catch (e) { /* private browsing or full: the file save still works */ }
}

function readSaved() {
  try { return JSON.parse(localStorage.getItem(SAVED)); } catch (e) { return null; }
}

function saveGame() {
  const text = JSON.stringify(current.game);
  const a = el('a', {href: URL.createObjectURL(new Blob([text], {type: 'application/json'})),
    download: `manila-seed${current.game.seed}-move${current.game.history.length}.json`});
  document.body.append(a);
  a.click();
  a.remove();
  $('#saved').textContent = `Saved (${text.length} bytes). Load it here to go on.`;
}

async function copyGame() {
  const text = JSON.stringify(current.game);
  try { await navigator.clipboard.writeText(text); $('#saved').textContent = 'Copied: paste it under ‘load’ to go on.'; }
  catch (e) { $('#saved').textContent = text; }
}

async function loadGame() {
  $('#setup-error').textContent = '';
  let text = $('#paste').value.trim();
  const file = $('#file').files[0];
  if (!text && file) text = await file.text();
  if (!text) { $('#setup-error').textContent = 'Choose a file or paste a saved game first.'; return; }
  let game;
  try { game = JSON.parse(text); } catch (e) { $('#setup-error').textContent = 'Not a saved game (not JSON).'; return; }
  begin();
  send({game, log: true}, true);
}

function resume() {
  const saved = readSaved();
  if (!saved) return;
  begin();
  send({game: saved.game, log: true}, true);
}

function begin() {
  current = null;
  $('#end').hidden = true;
  $('#setup-error').textContent = '';
}

function startGame() {
  if ($('#seed').value === '') randomSeed();
  begin();
  send({new: {players: setup.players, human: setup.human, seed: Number($('#seed').value), bots: setup.bots.slice()}}, true);
}

function newGame() {
  busy.stop();
  current = null;
  $('#game').hidden = true;
  $('#decision').hidden = true;
  $('#setup').hidden = false;
  $('#save').hidden = $('#new').hidden = true;
  renderSetup();
  layout();
}

// The decision panel covers the bottom of the page: leave room for it.
function layout() {
  const d = $('#decision');
  $('#spacer').style.height = d.hidden ? '0' : d.offsetHeight + 16 + 'px';
}

window.addEventListener('resize', layout);
$('#start').addEventListener('click', startGame);
$('#random-seed').addEventListener('click', randomSeed);
$('#load').addEventListener('click', loadGame);
$('#resume').addEventListener('click', resume);
$('#hint').addEventListener('click', askHint);
$('#save').addEventListener('click', saveGame);
$('#copy').addEventListener('click', copyGame);
$('#new').addEventListener('click', newGame);
if (params.has('seed')) $('#seed').value = params.get('seed');
renderSetup();
where().then(w => { if (w.browser) keepOffline(); });
