// A board as the play page and the review show it (not the calculator's, which is made of
// buttons to set one): prices, each boat on its track with its crew, the occupied spots.
// `board` is an observation (docs/observation.md) or part of one; `who(owner)` gives an
// owner's {text, cls} (the play page's "you" and colours).
import {el} from './dom.mjs';

const cap = s => s.charAt(0).toUpperCase() + s.slice(1);

export function drawBoard(names, board, who, {small = false} = {}) {
  const box = el('div', {class: 'board' + (small ? ' small' : '')});
  if (board.prices) {
    box.append(el('div', {class: 'prices'},
      ...names.goods.map(g => el('span', {'data-good': g, text: `${cap(g)} ${board.prices[g]}`}))));
  }
  const last = names.last_space;
  for (const [good, b] of Object.entries(board.boats || {})) {
    const arrived = b.position === 'arrived';
    const at = arrived ? last + 1 : b.position;
    const seats = names.seats[good].map((cost, k) => {
      const o = b.crew[k];
      if (o === undefined || o === null) return el('span', {class: 'seat', text: String(cost)});
      const w = who(o);
      return el('span', {class: 'seat who ' + w.cls, text: w.text});
    });
    box.append(el('div', {class: 'boat', 'data-boat': good},
      el('div', {text: cap(good) + (arrived ? ' · in Manila' : ' · space ' + b.position)}),
      el('div', {class: 'track', 'aria-hidden': 'true'},
         el('i', {style: `left:calc(${(100 * at) / (last + 1)}% - ${(18 * at) / (last + 1)}px)`})),
      el('div', {class: 'seats'}, ...seats)));
  }
  const spots = Object.entries(board.spots || {}).filter(([, o]) => o !== null && o !== undefined);
  if (spots.length) {
    box.append(el('div', {class: 'spots'}, ...spots.map(([spot, o]) => {
      const w = who(o);
      return el('span', {'data-spot': spot}, (names.labels[spot] || spot) + ': ', el('span', {class: 'who ' + w.cls, text: w.text}));
    })));
  }
  return box;
}
