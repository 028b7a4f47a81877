// Goods, seats and the names of the spots: filled in by the server (manila/server/names.py, page_data).
// The calculator: a voyage's board set by tapping, its exact values (POST /v1/evaluate),
// advice for the decision due (POST /v1/advise: a placement with replies, a pilot's move,
// a boarding) and a notation read by the engine (POST /v1/validate). Every answer comes
// through ask(); this module draws and asks, and keeps no rule of its own.
import {ask, where} from './ask.mjs';
import {$, BusyBar, el, keepOffline, pageData, problemLines} from './dom.mjs';
import {makeWords, pct, signed, toNumber} from './words.mjs';

// Goods, seats and the names of the spots: filled in by the server (manila/server/names.py, page_data).
const NAMES = pageData('names');
const W = makeWords(NAMES);
const GOODS = NAMES.goods;
const SEATS = NAMES.seats;
const CARGO = NAMES.cargo;
const SPOTS = NAMES.spots;  // [id, name, note]
const LABEL = NAMES.labels;
const SPOT_IDS = SPOTS.map(s => s[0]);
const PRICES = NAMES.prices;              // the price track during a voyage
const MAX_SHARES = NAMES.shares_per_good;
const COLOURS = ['red', 'blue', 'green', 'yellow', 'purple'];

const S = {
  roll: 1, players: 4, you: 'red', pen: 'red', home: GOODS[GOODS.length - 1],
  pos: Object.fromEntries(GOODS.map(g => [g, 3])),
  crew: Object.fromEntries(GOODS.map(g => [g, []])),
  spots: {}, thirteen: 'port', variant: false, loose: false, exact: false,
  shares: {}, prices: {}, budget: {},      // shares and budget per colour; prices per good
  advice: false, moment: 'placement',     // advice, and for which decision
  order: [], toMove: null,                 // this placement round, for reply-aware advice
};

const sailing = () => GOODS.filter(g => g !== S.home);
const limit = () => NAMES.accomplices[S.players];
// The colours at the table: purple only with 5 players (one met on the board stays shown).
const atTable = c => COLOURS.indexOf(c) < S.players || held(c) > 0;
// The cost column: what the spot costs, and insurance's payment in the terminal's words.
const costText = W.costText;
const sharesOf = c => S.shares[c] || {};
const inWealth = () => COLOURS.some(c => GOODS.some(g => sharesOf(c)[g] > 0));

function held(colour) {
  let n = 0;
  for (const g of sailing()) n += S.crew[g].filter(o => o === colour).length;
  for (const id of SPOT_IDS) if (S.spots[id] === colour) n += 1;
  return n;
}

// ---- building the controls once

function buildControls() {
  for (const [box, kind] of [['#you-swatches', 'you'], ['#pen-swatches', 'pen']]) {
    for (const c of COLOURS) {
      const b = el('button', {class: 'swatch o-' + c, ['data-' + kind]: c,
                              'aria-label': (kind === 'you' ? 'You are ' : 'Mark with ') + c, title: c},
                   c[0].toUpperCase());
      if (kind === 'pen') b.append(el('small', {}));
      $(box).append(b);
    }
  }
  document.querySelectorAll('[data-moment]').forEach(b => { b.textContent = W.cap(W.kind(b.dataset.moment)); });
  for (const g of GOODS) $('#home-buttons').append(el('button', {class: 'choice', 'data-home': g}, g));
  for (const c of COLOURS) {
    $('#order-swatches').append(el('button', {class: 'swatch o-' + c, 'data-order': c, title: c},
                                   c[0].toUpperCase(), el('small', {class: 'turn-no'})));
    $('#turn-swatches').append(el('button', {class: 'swatch o-' + c, 'data-turn': c, title: c,
                                             'aria-label': c + ' to move'}, c[0].toUpperCase()));
  }
  for (const g of GOODS) {
    const shares = el('select', {'data-shares': g, 'aria-label': g + ' shares'});
    for (let n = 0; n <= MAX_SHARES; n++) shares.append(el('option', {value: String(n)}, String(n)));
    const price = el('select', {'data-price': g, 'aria-label': g + ' price'});
    for (const p of PRICES) price.append(el('option', {value: String(p)}, String(p)));
    $('#wealth-table').append(el('tr', {'data-good': g}, el('th', {text: g}), el('td', {}, shares), el('td', {}, price)));
  }
  for (const g of GOODS) {
    const seats = el('div', {class: 'seats', role: 'group', 'aria-label': g + ' seats'});
    SEATS[g].forEach((cost, i) => seats.append(
      el('button', {class: 'seat', 'data-seat': g + ':' + i}, el('span', {class: 'who'}), el('small', {text: cost + ' ₱'}))));
    const track = el('div', {class: 'track', role: 'group', 'aria-label': g + ' position'});
    for (let p = 0; p <= 13; p++) {
      track.append(el('button', {'data-pos': g + ':' + p, class: p === 13 ? 'pirate' : '',
                                 'aria-label': g + ' on space ' + p}, String(p)));
    }
    track.append(el('button', {'data-pos': g + ':arrived', 'aria-label': g + ' arrived in Manila'}, 'M'));
    $('#boats').append(el('div', {class: 'boat', 'data-boat': g},
      el('div', {class: 'boat-head'}, el('b', {text: g}),
         el('span', {text: 'cargo ' + CARGO[g] + ' · seats ' + SEATS[g].join('/')})),
      seats, track));
  }
  for (const [id, name, note] of SPOTS) {
    $('#spots').append(el('button', {class: 'spot', 'data-spot': id},
                          el('b', {text: name}), el('small', {text: note}), el('small', {class: 'who'})));
  }
}

// ---- showing the board

function press(node, on) { node.setAttribute('aria-pressed', on ? 'true' : 'false'); }
function owner(node, colour) {
  for (const c of COLOURS) node.classList.remove('o-' + c);
  if (colour) node.classList.add('o-' + colour);
  const who = node.querySelector('.who');
  if (who) who.textContent = colour || '';
}

function renderBoard() {
  document.querySelectorAll('[data-roll]').forEach(b => press(b, +b.dataset.roll === S.roll));
  document.querySelectorAll('[data-players]').forEach(b => press(b, +b.dataset.players === S.players));
  document.querySelectorAll('[data-home]').forEach(b => press(b, b.dataset.home === S.home));
  document.querySelectorAll('[data-thirteen]').forEach(b => press(b, b.dataset.thirteen === S.thirteen));
  document.querySelectorAll('[data-you]').forEach(b => press(b, b.dataset.you === S.you));
  document.querySelectorAll('[data-you], [data-pen], [data-order], [data-turn]').forEach(b => {
    const c = b.dataset.you || b.dataset.pen || b.dataset.order || b.dataset.turn;
    if (!atTable(c)) b.hidden = true; else if (!b.dataset.turn) b.hidden = false;
  });
  document.querySelectorAll('[data-pen]').forEach(b => {
    const n = held(b.dataset.pen);
    press(b, b.dataset.pen === S.pen);
    b.querySelector('small').textContent = n + '/' + limit();
    b.classList.toggle('full', n >= limit());
  });
  $('#limit-note').textContent = limit() + ' accomplices each';
  $('#limit-note').classList.remove('refused');
  for (const g of GOODS) {
    const boat = document.querySelector(`[data-boat="${g}"]`);
    boat.classList.toggle('home', g === S.home);
    boat.querySelectorAll('[data-seat]').forEach(b => {
      const i = +b.dataset.seat.split(':')[1];
      owner(b, S.crew[g][i]);
      b.setAttribute('aria-label', `${g} seat ${i + 1} (${SEATS[g][i]} pesos): ${S.crew[g][i] || 'free'}`);
    });
    boat.querySelectorAll('[data-pos]').forEach(b => press(b, b.dataset.pos.split(':')[1] === String(S.pos[g])));
    boat.querySelectorAll('button').forEach(b => { b.disabled = g === S.home; });
  }
  document.querySelectorAll('[data-spot]').forEach(b => {
    if (b.tagName !== 'BUTTON') return;
    owner(b, S.spots[b.dataset.spot]);
    b.setAttribute('aria-label', `${LABEL[b.dataset.spot]}: ${S.spots[b.dataset.spot] || 'free'}`);
  });
  const toggle = $('#advice-toggle');
  press(toggle, S.advice);
  toggle.textContent = 'Advice: ' + (S.advice ? 'on' : 'off');
  $('#moment-row').hidden = !S.advice;
  document.querySelectorAll('[data-moment]').forEach(b => press(b, b.dataset.moment === S.moment));
  $('#order-rows').hidden = !S.advice || S.moment !== 'placement';
  document.querySelectorAll('[data-order]').forEach(b => {
    const at = S.order.indexOf(b.dataset.order);
    press(b, at >= 0);
    b.querySelector('small').textContent = at >= 0 ? String(at + 1) : '–';
    b.setAttribute('aria-label', b.dataset.order + (at >= 0 ? ' places ' + (at + 1) + ' in this round' : ': not in this round'));
  });
  document.querySelectorAll('[data-turn]').forEach(b => {
    b.hidden = !S.order.includes(b.dataset.turn) || !atTable(b.dataset.turn);
    press(b, b.dataset.turn === S.toMove);
  });
  $('#shares-head').textContent = 'Shares of ' + S.you;
  document.querySelectorAll('[data-shares]').forEach(e => { e.value = String(sharesOf(S.you)[e.dataset.shares] || 0); });
  document.querySelectorAll('[data-price]').forEach(e => { e.value = String(S.prices[e.dataset.price] || 0); });
  document.querySelectorAll('#wealth-table tr').forEach(r => r.classList.toggle('home', r.dataset.good === S.home));
  $('#budget-label').textContent = 'Budget of ' + S.you;
  const budget = $('#budget-input');
  if (document.activeElement !== budget) budget.value = S.you in S.budget ? String(S.budget[S.you]) : '';
  $('#wealth-summary').textContent = wealthSummary();
  $('#opt-variant').checked = S.variant;
  $('#opt-loose').checked = S.loose;
  $('#opt-exact').checked = S.exact;
  $('#spot-title').textContent = `Spots for ${S.you}, best first`;
}

function wealthSummary() {
  const parts = [];
  for (const c of COLOURS) {
    const held = GOODS.filter(g => sharesOf(c)[g] > 0).map(g => g + ' ' + sharesOf(c)[g]);
    if (held.length) parts.push(c + ': ' + held.join(', '));
  }
  const priced = GOODS.filter(g => S.prices[g]).map(g => g + ' ' + S.prices[g]);
  if (priced.length) parts.push('prices ' + priced.join(', '));
  for (const c of COLOURS) if (c in S.budget) parts.push(c + ' can pay ' + S.budget[c]);
  return (inWealth() ? 'values in wealth · ' : 'no shares: values in income · ') + (parts.join(' · ') || 'none set');
}

function stateJSON() {
  const boats = {};
  for (const g of sailing()) boats[g] = {position: S.pos[g], crew: S.crew[g].slice()};
  const spots = {};
  for (const id of SPOT_IDS) if (S.spots[id]) spots[id] = S.spots[id];
  const data = {rules: {thirteen_after_last_roll: S.thirteen, pirate_variant: S.variant},
                next_roll: S.roll, player: S.you, boats, spots};
  if (S.players === 3) data.players = 3;
  // Values are in wealth as soon as anyone holds a share.
  const shares = {};
  for (const c of COLOURS) {
    const held = {};
    for (const g of GOODS) if (sharesOf(c)[g] > 0) held[g] = sharesOf(c)[g];
    if (Object.keys(held).length) shares[c] = held;
  }
  if (Object.keys(shares).length) { data.objective = 'wealth'; data.shares = shares; }
  const prices = {};
  for (const g of GOODS) if (S.prices[g]) prices[g] = S.prices[g];
  if (Object.keys(prices).length) data.prices = prices;
  const budget = {};
  for (const c of COLOURS) if (c in S.budget) budget[c] = S.budget[c];
  if (Object.keys(budget).length) data.budget = budget;
  if (S.loose) data.strict = false;
  return data;
}

// ---- where the answers come from

function showWhere({browser, why}) {
  const where = $('#where');
  where.dataset.where = browser ? 'browser' : 'server';
  if (browser) {
    where.textContent = 'Computed in your browser: no server needed.';
    keepOffline(where);
  } else if (location.protocol === 'file:') {
    where.textContent = 'Opened as a file, the browser will not start the engine: open the page through a web server ' +
      '(python -m manila web, then any static host; see docs/web.md).';
  } else where.textContent = `Computed on the server (the engine did not start in this browser: ${why}).`;
}


function showNotationErrors(list) {
  const box = $('#notation-errors');
  const input = $('#notation-input');
  box.replaceChildren();
  if (!list || !list.length) { box.classList.remove('show'); input.removeAttribute('aria-invalid'); return; }
  box.append(el('b', {text: 'This notation cannot be loaded:'}));
  const ul = el('ul');
  for (const p of list) ul.append(el('li', {'data-path': p.path || ''}, (p.path ? p.path + ': ' : '') + p.message));
  box.append(ul);
  box.classList.add('show');
  input.setAttribute('aria-invalid', 'true');
}

function showErrors(list) {
  const box = $('#errors');
  box.replaceChildren();
  if (!list || !list.length) { box.classList.remove('show'); return; }
  box.append(el('b', {text: 'This board is not a valid voyage:'}));
  const ul = el('ul');
  const remedy = ` (${NAMES.strict_remedy_http})`;  // the API's words for the option below
  let strict = false;
  for (const p of list) {
    const message = p.message.replace(remedy, '');
    strict = strict || p.strict || message !== p.message;
    ul.append(el('li', {'data-path': p.path || ''}, (p.path ? p.path + ': ' : '') + message));
  }
  box.append(ul);
  if (!S.loose && strict) {
    const hint = el('p', {class: 'muted', id: 'strict-hint'}, 'To evaluate it anyway, allow positions no real voyage reaches: ');
    hint.append(el('button', {id: 'show-loose'}, 'show the option'));
    box.append(hint);
  }
  box.classList.add('show');
}

let sequence = 0;
let inflight = null;

// A board the engine cannot answer for lacks no fix of its own: no engine here and no server.
function unreachable(res) { return !(res.body && (res.status === 200 || Array.isArray(res.body.errors))); }

async function evaluateNow() {
  const mine = ++sequence;
  if (inflight) inflight.abort();
  inflight = new AbortController();
  const signal = inflight.signal;
  staleAdvice();
  const sent = stateJSON();
  $('#status').textContent = 'computing…';
  $('#results').classList.add('stale');
  document.body.dataset.state = 'busy';
  document.body.dataset.requested = String(mine);
  // The board's notation is the engine's (POST /v1/validate writes it): the page writes
  // no format of its own.
  let res, named;
  try {
    [res, named] = await Promise.all([ask('evaluate', S.exact ? {...sent, exact: true} : sent, {signal}),
                                      ask('validate', sent, {signal})]);
  } catch (e) {
    return;  // a newer board is being evaluated
  }
  if (mine !== sequence) return;
  inflight = null;
  if (unreachable(res)) {
    // Not the board's fault: say what is wrong, and keep the board as it is.
    showErrors([]);
    $('#status').textContent = '';
    $('#best').textContent = 'Cannot compute: the engine did not start in this browser, and no server answers.';
    document.body.dataset.state = 'error';
    document.body.dataset.seq = String(mine);
    return;
  }
  $('#notation').textContent = named.status === 200 ? named.body.notation : '';
  if (res.status === 200) {
    showErrors([]);
    renderResults(res.body, sent);
    $('#results').classList.remove('stale');
    $('#status').textContent = '';
    document.body.dataset.state = 'ready';
    saveHash(named.body.notation);
    requestAdvice();
  } else {
    showErrors(res.body.errors);
    $('#status').textContent = '';
    $('#best').textContent = 'Fix the board to see values';
    document.body.dataset.state = 'error';
    if (adviceWanted()) setAdvice('off', 'Fix the board to get advice.');
  }
  document.body.dataset.seq = String(mine);
}

function changed() { renderBoard(); evaluateNow(); }

// ---- advice (POST /v1/advise) for the decision set under "Advice", after each good evaluation

let adviceSeq = 0;
let adviceTimer = null;
const adviceBusy = new BusyBar($('#advice-busy'));

// A placement needs the round's order and whose turn it is; a pilot's move or a boarding
// is its owner's, whom the engine finds on the board.
function adviceWanted() {
  return S.advice && (S.moment !== 'placement' || (S.order.length > 0 && S.order.includes(S.toMove)));
}

function position() {
  const moment = S.moment === 'placement' ? {kind: 'placement', order: S.order.slice(), to_move: S.toMove} : {kind: S.moment};
  return Object.assign(stateJSON(), S.exact ? {exact: true} : {}, {moment});
}

function setAdvice(state, message) {
  const panel = $('#advice');
  panel.dataset.state = state;
  panel.classList.toggle('stale', state !== 'ready');
  $('#advice-status').textContent = message || '';
  if (state !== 'ready' && state !== 'thinking') {
    $('#advice-best').textContent = '';
    $('#advice-line').replaceChildren();
    $('#advice-options').replaceChildren();
    $('#best-advice').textContent = '';
  }
}

// The board changed: whatever advice is shown or on its way is for another board.
function staleAdvice() {
  adviceSeq++;
  clearTimeout(adviceTimer);
  adviceBusy.stop();
  $('#advice').hidden = !S.advice;
  if (adviceWanted()) setAdvice('thinking', 'thinking…');
  else setAdvice('off', S.advice ? 'Tap the players of this round in order, and whose turn it is.' : '');
}

// The board is valid and evaluated: ask for advice on it, a moment later (taps come in bursts).
function requestAdvice() {
  staleAdvice();
  if (!adviceWanted()) return;
  const mine = adviceSeq;
  adviceTimer = setTimeout(() => fetchAdvice(mine), 150);
}

async function fetchAdvice(mine) {
  if (mine !== adviceSeq) return;
  const who = S.moment === 'placement' ? `${S.toMove} to move; everyone after answers` : W.kind(S.moment);
  const job = adviceBusy.start(`thinking… (${who})`);
  let res;
  try {
    res = await ask('advise', position(), job);
  } catch (e) {
    if (mine === adviceSeq) setAdvice('off', 'Advice cancelled: change the board or tap the moment again to ask again.');
    return;
  } finally {
    job.done();
  }
  if (mine !== adviceSeq) return;  // an answer for a board that is no longer there
  if (res.status === 200) {
    renderAdvice(res.body);
    setAdvice('ready');
  } else if (unreachable(res)) {
    setAdvice('error', 'No advice: the engine did not start in this browser, and no server answers.');
  } else {
    setAdvice('error', 'No advice here: ' + problemLines(res.body, res.status).join('; '));
  }
}

function renderAdvice(a) {
  const best = a.options[a.best];
  const first = Object.keys(a.options)[0];
  const net = best && a.best !== first ? ' ' + signed(toNumber(best.expected_net)) : '';
  const box = $('#advice-best');
  // A placement's advice knows the replies of the round; the spot table does not.
  const head = a.kind === 'placement' ? 'Best reply-aware choice' : 'Best';
  box.textContent = `${head} for ${a.to_move}: ${W.option(a.best)}` + net;
  box.dataset.best = a.best;
  box.dataset.net = best ? String(best.expected_net) : '';
  const line = $('#advice-line');
  line.replaceChildren();
  for (const [who, option] of a.line) {
    line.append(el('li', {'data-who': who, 'data-option': option},
                   el('span', {class: 'dot o-' + who}), `${who}: ${W.option(option)}`));
  }
  // Every option with its value against the first (placing no more, no move, staying).
  const options = $('#advice-options');
  options.replaceChildren();
  const rows = Object.entries(a.options).sort((x, y) => toNumber(y[1].expected_net) - toNumber(x[1].expected_net));
  for (const [name, o] of rows) {
    options.append(el('tr', {'data-option': name, 'data-net': String(o.expected_net)},
      el('td', {text: W.option(name)}), valueCell(o.expected_net, signed(toNumber(o.expected_net)), 'net')));
  }
  $('#advice-against').textContent = `Against: ${W.option(first)}.`;
  const what = a.kind === 'placement' ? 'reply-aware' : W.kind(a.kind);
  $('#best-advice').textContent = ` · ${what}${a.to_move === S.you ? '' : ' for ' + a.to_move}: ${W.option(a.best)}`;
}


// ---- showing the results

function valueCell(v, text, cls) {
  const td = el('td', {class: 'num ' + (cls || ''), 'data-value': String(v)}, text);
  // An exact fraction may break after its slash on a narrow phone, not inside a number.
  if (typeof v === 'string') td.append(el('small', {}, ...v.split('/').flatMap((part, i) => (i ? [el('wbr'), '/' + part] : [part]))));
  return td;
}

function renderResults(out, sent) {
  const wealth = sent.objective === 'wealth';
  $('#wealth-note').hidden = !wealth;
  $('#wealth-note').textContent = NAMES.in_wealth;
  $('#spot-title').textContent = `Spots for ${S.you}, best first` + (wealth ? ', in wealth' : '');
  const rows = Object.entries(out.spots).map(([id, s]) => ({id, cost: s.cost, raw: s.expected_net, net: toNumber(s.expected_net)}));
  rows.sort((a, b) => b.net - a.net);  // stable: ties stay in canonical order
  const body = $('#spot-table');
  body.replaceChildren();
  for (const r of rows) {
    const tr = el('tr', {'data-spot': r.id, 'data-net': String(r.raw), class: r.net > 0 ? 'pos' : (r.net < 0 ? 'neg' : '')},
                  el('td', {text: LABEL[r.id] || r.id}), el('td', {class: 'num cost', 'data-cost': String(r.cost), text: costText(r.cost)}),
                  valueCell(r.raw, signed(r.net), 'net'));
    body.append(tr);
  }
  if (!rows.length) body.append(el('tr', {}, el('td', {colspan: '3', class: 'muted', text: 'No spot is open to you.'})));
  // A budget below every free spot: the server offers every free spot but insurance for the whole
  // budget. Told by a seat offered at the whole budget rather than its price (seat prices: the server's).
  const budget = (sent.budget || {})[S.you];
  const blind = budget !== undefined && rows.length > 0 && !rows.some(r => r.id === 'insurance')
                && rows.every(r => r.cost === budget)
                && rows.some(r => r.id in SEATS && SEATS[r.id][S.crew[r.id].length] !== r.cost);
  $('#blind-note').hidden = !blind;
  $('#blind-note').textContent = blind ? `Blind passenger: ${S.you}'s budget (${budget}) is below every free spot, ` +
    'so any free spot but insurance costs all of it.' : '';
  const best = rows[0];
  $('#best').textContent = best
    ? (best.net > 0 ? `Best for ${S.you}: ${LABEL[best.id]} ${signed(best.net)}` : `Nothing gains for ${S.you} (best ${LABEL[best.id]} ${signed(best.net)})`)
    : `No spot open to ${S.you}`;

  const boats = $('#boat-table');
  boats.replaceChildren();
  for (const [g, odds] of Object.entries(out.boats)) {
    const head = el('th', {}, g[0].toUpperCase() + g.slice(1));
    const bar = el('div', {class: 'bar', 'aria-hidden': 'true'});
    for (const k of ['port', 'shipyard', 'plundered']) {
      bar.append(el('i', {class: k, style: `width:${(100 * toNumber(odds[k])).toFixed(2)}%`}));
    }
    head.append(bar);
    const tr = el('tr', {'data-boat': g}, head);
    for (const k of ['port', 'shipyard', 'plundered']) {
      const td = valueCell(odds[k], pct(toNumber(odds[k])));
      td.dataset.outcome = k;
      tr.append(td);
    }
    boats.append(tr);
  }
  // Under wealth, each player's payoff (income plus the price rise of their shares) beside the income.
  $('#income-title').textContent = wealth ? 'Expected payoff this voyage, in wealth' : 'Expected income this voyage';
  $('#income-head').replaceChildren(el('tr', {}, el('th', {text: 'Player'}),
    ...(wealth ? [el('th', {class: 'num', text: 'Payoff'})] : []), el('th', {class: 'num', text: 'Income'})));
  const incomes = $('#income-table');
  incomes.replaceChildren();
  const payoffs = out.payoffs || out.incomes;
  for (const who of Object.keys(wealth ? payoffs : out.incomes)) {
    const name = el('td', {}, el('span', {class: 'swatch o-' + who, style: 'display:inline-block;width:12px;min-width:12px;height:12px;border-radius:3px;margin-right:6px'}), who);
    const cells = [];
    if (wealth) { const c = valueCell(payoffs[who], toNumber(payoffs[who]).toFixed(2)); c.dataset.kind = 'payoff'; cells.push(c); }
    const v = out.incomes[who];
    const c = valueCell(v, toNumber(v).toFixed(2));
    c.dataset.kind = 'income';
    cells.push(c);
    incomes.append(el('tr', {'data-owner': who}, name, ...cells));
  }
  $('#net-explain').textContent = wealth
    ? 'Expected net = your expected payoff (voyage income plus the price rise of your shares) with the accomplice there, ' +
      'minus without it, minus its cost (insurance: plus the 10 it pays at once). Later decisions — boarding, pilots, ' +
      'plunder — are each owner\'s best for their own payoff.'
    : 'Expected net = your expected income with the accomplice there, minus without it, minus its cost ' +
      '(insurance: plus the 10 it pays at once). Later decisions — boarding, pilots, plunder — are each owner\'s best.';
}

// ---- loading a state (notation, example, link)

// The game engine names its players p0, p1, ...: the page shows them in its colours, in order.
function engineNames(st) {
  const names = new Set([...Object.values(st.boats).flatMap(b => b.crew), ...Object.values(st.spots || {}),
                         ...Object.keys(st.shares || {}), ...Object.keys(st.budget || {}), st.player].filter(Boolean));
  const seats = [...names].map(o => /^p([0-9])$/.exec(o));
  if (!names.size || seats.some(m => !m || +m[1] >= COLOURS.length)) return null;
  const to = o => COLOURS[+o.slice(1)];
  const map = obj => Object.fromEntries(Object.entries(obj || {}).map(([k, v]) => [to(k), v]));
  const out = JSON.parse(JSON.stringify(st));
  for (const b of Object.values(out.boats)) b.crew = b.crew.map(to);
  out.spots = Object.fromEntries(Object.entries(out.spots || {}).map(([k, o]) => [k, to(o)]));
  if (st.shares) out.shares = map(st.shares);
  if (st.budget) out.budget = map(st.budget);
  if (st.player) out.player = to(st.player);
  return {state: out, note: [...names].sort().map(o => `${o} is ${to(o)}`).join(', ')};
}

function applyState(st) {
  const renamed = engineNames(st);
  $('#names-note').hidden = !renamed;
  if (renamed) { st = renamed.state; $('#names-note').textContent = `Players of the game engine, shown in colour: ${renamed.note}.`; }
  const owners = new Set();
  Object.values(st.boats).forEach(b => b.crew.forEach(o => owners.add(o)));
  Object.values(st.spots || {}).forEach(o => owners.add(o));
  Object.keys(st.shares || {}).forEach(o => owners.add(o));
  Object.keys(st.budget || {}).forEach(o => owners.add(o));
  if (st.player) owners.add(st.player);
  const strangers = [...owners].filter(o => !COLOURS.includes(o));
  if (strangers.length) {
    showNotationErrors([{path: '', message: `this page names players by colour (${COLOURS.join(', ')}), not ${strangers.join(', ')}`}]);
    return false;
  }
  S.roll = st.next_roll;
  S.players = st.players || (S.players === 3 ? 4 : S.players);
  S.home = GOODS.find(g => !(g in st.boats));
  for (const g of GOODS) if (g in st.boats) { S.pos[g] = st.boats[g].position; S.crew[g] = st.boats[g].crew.slice(); }
  S.crew[S.home] = [];
  S.spots = Object.assign({}, st.spots || {});
  S.shares = JSON.parse(JSON.stringify(st.shares || {}));
  S.prices = Object.assign({}, st.prices || {});
  S.budget = Object.assign({}, st.budget || {});
  if (st.player) { S.you = st.player; S.pen = st.player; }
  const rules = st.rules || {};
  S.thirteen = rules.thirteen_after_last_roll || 'port';
  S.variant = !!rules.pirate_variant;
  return true;
}

// A notation that cannot be loaded is the box's problem, not the board's: the board keeps
// its state, and the errors appear beside the box. The engine reads it (POST /v1/validate).
let notationSeq = 0;

async function loadNotation(text) {
  const mine = ++notationSeq;
  let res;
  try { res = await ask('validate', {notation: text, strict: !S.loose}); } catch (e) { return false; }
  if (mine !== notationSeq) return false;  // a later notation was asked for
  if (res.status === 200) {
    if (applyState(res.body.state)) { showNotationErrors([]); changed(); return true; }
    return false;
  }
  showNotationErrors(unreachable(res)
    ? [{path: '', message: 'the engine did not start in this browser, and no server answers'}]
    : res.body.errors);
  return false;
}


function saveHash(notation) {
  const q = new URLSearchParams({n: notation});
  if (S.loose) q.set('strict', '0');
  if (S.exact) q.set('exact', '1');
  if (new URLSearchParams(location.hash.slice(1)).get('engine') === 'server') q.set('engine', 'server');
  if (S.advice && S.moment !== 'placement') q.set('moment', S.moment);
  else if (S.advice) { q.set('order', S.order.join(',')); if (S.toMove) q.set('turn', S.toMove); }
  history.replaceState(null, '', '#' + q.toString());
}

// ---- clicks

// The marking colour has placed all its accomplices: the tap is refused, and said why.
function noneLeft() {
  if (held(S.pen) < limit()) return false;
  const note = $('#limit-note');
  note.textContent = `${S.pen} has no accomplice left: ${limit()} each with ${S.players} players`;
  note.classList.add('refused');
  return true;
}

document.addEventListener('click', ev => {
  const b = ev.target.closest('button');
  if (!b || b.disabled) return;
  const d = b.dataset;
  if (d.roll) S.roll = +d.roll;
  else if (d.players) {
    S.players = +d.players;
    if (!atTable(S.you)) S.you = COLOURS[0];
    if (!atTable(S.pen)) S.pen = S.you;
    S.order = S.order.filter(atTable);
    if (!S.order.includes(S.toMove)) S.toMove = S.order.includes(S.you) ? S.you : (S.order[0] || null);
  }
  else if (d.home) S.home = d.home;
  else if (d.thirteen) S.thirteen = d.thirteen;
  else if (d.you) { S.you = d.you; S.pen = d.you; if (S.order.includes(d.you)) S.toMove = d.you; }
  else if (d.order) {
    const at = S.order.indexOf(d.order);
    if (at >= 0) S.order.splice(at, 1); else S.order.push(d.order);
    if (!S.order.includes(S.toMove)) S.toMove = S.order.includes(S.you) ? S.you : (S.order[0] || null);
  } else if (d.turn) S.toMove = d.turn;
  else if (d.moment) S.moment = d.moment;
  else if (b.id === 'advice-toggle') {
    S.advice = !S.advice;
    if (S.advice && !S.order.length) {
      // Everyone at the table, the first colour as harbour master, you to move.
      S.order = COLOURS.slice(0, S.players);
      if (!S.order.includes(S.you)) S.order[S.order.length - 1] = S.you;
      S.toMove = S.you;
    }
  }
  else if (b.id === 'show-loose') {
    const fold = $('#more details');
    fold.open = true;
    $('#opt-loose').scrollIntoView({block: 'center'});
    $('#opt-loose').focus();
    return;
  }
  else if (b.id === 'wealth-toggle') {
    const open = b.getAttribute('aria-expanded') !== 'true';
    b.setAttribute('aria-expanded', String(open));
    $('#wealth-body').hidden = !open;
    return;
  }
  else if (d.pen) S.pen = d.pen;
  else if (d.seat) {
    const [g, i] = [d.seat.split(':')[0], +d.seat.split(':')[1]];
    const crew = S.crew[g];
    if (i < crew.length && crew[i] === S.pen) crew.splice(i, 1);
    else if (noneLeft()) return;
    else if (i < crew.length) crew[i] = S.pen;
    else if (crew.length < SEATS[g].length) crew.push(S.pen);  // seats fill front to back
  } else if (d.pos) {
    const [g, p] = d.pos.split(':');
    S.pos[g] = p === 'arrived' ? p : +p;
  } else if (d.spot) {
    if (S.spots[d.spot] === S.pen) delete S.spots[d.spot];
    else if (noneLeft()) return;
    else S.spots[d.spot] = S.pen;
  } else if (b.id === 'load-notation') { loadNotation($('#notation-input').value.trim()); return; }
  else if (b.id === 'load-example') {
    if (applyState(NAMES.example)) changed();
    return;
  } else if (b.id === 'clear-board') { for (const g of GOODS) S.crew[g] = []; S.spots = {}; }
  else return;
  changed();
});
$('#opt-variant').addEventListener('change', e => { S.variant = e.target.checked; changed(); });
$('#opt-loose').addEventListener('change', e => { S.loose = e.target.checked; changed(); });
$('#opt-exact').addEventListener('change', e => { S.exact = e.target.checked; changed(); });
$('#notation-input').addEventListener('keydown', e => { if (e.key === 'Enter') loadNotation(e.target.value.trim()); });
$('#notation-input').addEventListener('input', () => showNotationErrors([]));
document.addEventListener('change', ev => {
  const t = ev.target;
  if (t.dataset.shares) {
    S.shares[S.you] = Object.assign({}, sharesOf(S.you), {[t.dataset.shares]: +t.value});
  } else if (t.dataset.price) S.prices[t.dataset.price] = +t.value;
  else return;
  changed();
});
$('#budget-input').addEventListener('input', e => {
  const text = e.target.value.trim();
  if (text === '') delete S.budget[S.you]; else S.budget[S.you] = Number(text);
  changed();
});

buildControls();
where().then(showWhere);
$('#caveat').textContent = NAMES.nobody_after_you;
$('#advice-why').textContent = NAMES.reply_aware;
// A link edited in an open tab: read it again (the page's own updates replace the hash
// without this event).
window.addEventListener('hashchange', () => readHash());

function readHash() {
  const q = new URLSearchParams(location.hash.slice(1));
  S.loose = q.get('strict') === '0';
  S.exact = q.get('exact') === '1';
  if (q.has('moment')) {
    S.advice = true;
    S.moment = q.get('moment');
  } else if (q.has('order')) {
    S.advice = true;
    S.order = q.get('order').split(',').filter((c, i, all) => COLOURS.includes(c) && all.indexOf(c) === i);
    S.toMove = S.order.includes(q.get('turn')) ? q.get('turn') : (S.order[0] || null);
  }
  renderBoard();
  if (q.get('n')) loadNotation(q.get('n')).then(ok => { if (!ok) evaluateNow(); }); else evaluateNow();
}
readHash();
