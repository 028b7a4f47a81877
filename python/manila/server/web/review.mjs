// The review of a finished game (POST /v1/review, docs/review.md) as a phone shows it:
// everyone's accuracy and luck, then the player's mistakes worst first, each as a small
// board of the table as it stood (the view the page kept when the player decided) with the
// options in words.
import {drawBoard} from './board.mjs';
import {el} from './dom.mjs';
import {signed, withInterval} from './words.mjs';

// review: the answer; you: "p0"; bots: {p1: "expert", ...}; boards: {history index: the
// player's view then}; who(owner): {text, cls}.
export function drawReview(names, words, review, {you, bots, boards, who}) {
  const box = el('div', {class: 'review', 'data-ready': '1'});
  const unit = review.unit || 'pesos';
  const rows = Object.entries(review.players || {}).map(([p, s]) => el('tr', {'data-player': p},
    el('td', {class: 'who ' + who(p).cls, text: who(p).text + (bots[p] ? ` (${bots[p]})` : '')}),
    el('td', {class: 'num', text: s.accuracy === null || s.accuracy === undefined ? '—' : (100 * s.accuracy).toFixed(0) + '%'}),
    el('td', {class: 'num', text: s.luck === null || s.luck === undefined ? '—' : signed(s.luck, 1)}),
    el('td', {text: s.band || ''})));
  if (rows.length) {
    box.append(el('table', {class: 'stats', id: 'review-players'},
      el('tr', {}, el('th', {text: 'Player'}), el('th', {class: 'num', text: 'Accuracy'}),
         el('th', {class: 'num', text: `Luck (${unit})`}), el('th', {text: 'Band'})), ...rows));
    // Each player's result told apart into luck, play and what the review leaves out.
    const lines = Object.entries(review.players || {}).filter(([, s]) => s.reconciliation)
      .map(([p, s]) => el('li', {'data-player': p,
        text: `${who(p).text}: ${s.reconciliation}; luck-adjusted ${signed(s.luck_adjusted, 1)}`}));
    if (lines.length) box.append(el('ul', {class: 'muted', id: 'review-reconciliation'}, ...lines));
  }
  const mine = (review.decisions || []).filter(d => d.player === you && d.class !== 'fine' && !d.forced)
    .sort((a, b) => b.loss - a.loss);
  box.append(el('h2', {text: mine.length ? 'Your mistakes, worst first' : 'No mistakes of yours found'}));
  for (const d of mine) {
    const view = boards[d.index];
    box.append(el('div', {class: 'mistake', 'data-index': String(d.index), 'data-kind': d.kind},
      el('h3', {text: `Voyage ${d.voyage}, ${words.kind(d.kind)}: ${d.class}`}),
      view ? drawBoard(names, boardOf(view), who, {small: true}) : null,
      view ? el('p', {class: 'muted cash', text: 'Cash: ' + view.players.map((p, i) => `${who('p' + i).text} ${p.cash}`).join(', ')}) : null,
      el('p', {class: 'chosen'}, 'You chose: ', el('b', {text: words.option(d.chosen)})),
      el('p', {class: 'better'}, 'Better: ', el('b', {text: words.option(d.best)}),
         ` (${withInterval(d.loss, d.loss_ci95)} ${unit})`)));
  }
  return box;
}

// An observation names its owners by seat number; the board draws them as "p0", "p1".
export function boardOf(view) {
  const named = o => (o === null || o === undefined ? o : 'p' + o);
  const boats = {};
  for (const [g, b] of Object.entries(view.boats || {})) boats[g] = {position: b.position, crew: b.crew.map(named)};
  const spots = {};
  for (const [s, o] of Object.entries(view.spots || {})) spots[s] = named(o);
  return {prices: view.prices, boats, spots};
}
