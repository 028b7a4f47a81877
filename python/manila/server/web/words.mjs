// The page's words for the engine's names: spots, the options of advice and analysis, the
// actions of a game, and numbers as the page writes them. Every name comes from the engine
// (and the labels from names.py's page_data, filled into the page); nothing here decides
// what is legal or what anything is worth.

const cap = s => s.charAt(0).toUpperCase() + s.slice(1);

// "n/d" (exact) or a number, as a number.
export function toNumber(v) {
  if (typeof v === 'number') return v;
  const [n, d] = String(v).split('/');
  return d === undefined ? Number(n) : Number(n) / Number(d);
}

// +1.25, −0.50 (a real minus sign), 0.00.
export function signed(x, digits = 2) {
  const t = Math.abs(x).toFixed(digits);
  if (Number(t) === 0) return t;
  return (x > 0 ? '+' : '−') + t;
}

export const pct = x => (100 * x).toFixed(1) + '%';

// A value with its 95% interval: "+1.25 ± 0.40".
export const withInterval = (x, ci) => signed(x) + (ci ? ' ± ' + ci.toFixed(2) : '');

// A pilot's moves as the advice names them ("jade+1", "ginseng+1 jade-1"), as [good, "+1"].
const MOVE = /^([a-z]+)([+-]\d)$/;
function pilotMoves(name) {
  const parts = name.split(' ').map(p => MOVE.exec(p));
  return parts.every(Boolean) ? parts.map(m => [m[1], m[2]]) : null;
}

// The decisions that are not named after a spot (the pilots' are: their labels say them).
const KINDS = {auction: 'the auction', harbour_master: 'harbour master'};

export function makeWords(names) {
  const label = id => names.labels[id] || id;
  const goodsOf = text => text.split(', ').map(p => p.split(' '));
  const starts = pairs => pairs.map(([g, s]) => `${cap(g)} ${s}`).join(' · ');

  // An option of advice or analysis (part 4 and 5 names) in words.
  function option(name) {
    if (name === 'decline') return names.decline;
    if (name in names.labels) return label(name);
    if (name === 'none') return 'No move';
    if (name === 'stay') return 'Stay on the pirate ship';
    if (name === 'pass') return 'Pass';
    let m;
    if ((m = /^up to (\d+)$/.exec(name))) return `Bid up to ${m[1]}`;
    if ((m = /^board (\w+)(?: displace (\d+))?$/.exec(name))) {
      return `Board the ${m[1]} boat` + (m[2] ? `, displacing seat ${m[2]}` : '');
    }
    const moves = pilotMoves(name);
    if (moves) return moves.map(([g, d]) => `${cap(g)} ${d[1]} ${d[0] === '+' ? 'forward' : 'back'}`).join(', ');
    if (/ to (Manila|the shipyard)$/.test(name)) return cap(name);
    // The harbour master's combination: "buy jade; ginseng 0, silk 4, jade 5" or its starts.
    const [share, placed] = name.includes('; ') ? name.split('; ') : [null, name];
    const pairs = goodsOf(placed);
    if (pairs.every(p => p.length === 2 && names.goods.includes(p[0]))) {
      const home = names.goods.filter(g => !pairs.some(p => p[0] === g));
      const buy = share === null ? '' : (share === 'buy nothing' ? 'Buy no share; ' : `Buy ${share.slice(4)}; `);
      return `${buy}start ${starts(pairs)}` + (home.length === 1 ? ` (${home[0]} stays home)` : '');
    }
    return cap(name);
  }

  // A legal action of the game (engine's names) as [title, note] for its button.
  function action(name, view) {
    let m;
    if ((m = /^place (.+)$/.exec(name))) {
      const spot = m[1];
      if (names.seats[spot]) {
        const taken = ((view.boats || {})[spot] || {crew: []}).crew.length;
        return [label(spot), 'pay ' + names.seats[spot][taken]];
      }
      const info = names.spots.find(s => s[0] === spot);
      return [label(spot), info ? info[2] : ''];
    }
    if ((m = /^start ([\d-]+)$/.exec(name))) {
      const sailing = Object.keys(view.boats || {}).length ? Object.keys(view.boats)
        : names.goods.filter(g => g !== view.stays_home);
      return [starts(sailing.map((g, k) => [g, m[1].split('-')[k]])), ''];
    }
    if (name === 'buy nothing') return ['Buy no share', ''];
    if ((m = /^buy (\w+)$/.exec(name))) return ['Buy ' + m[1], 'price ' + view.prices[m[1]]];
    if ((m = /^leave (\w+) home$/.exec(name))) return [cap(m[1]) + ' stays home', ''];
    if ((m = /^bid (\d+)$/.exec(name))) return ['Bid ' + m[1], ''];
    if (name === 'decline') return [names.decline, 'this voyage'];
    if (name === 'mortgage') return ['Mortgage a share', '+12 cash'];
    if (name === 'repay') return ['Repay a loan', '−15 cash'];
    if (name === 'stay') return [option('stay'), ''];
    if ((m = /^board (.+)$/.exec(name))) return ['Board the ' + m[1], ''];
    return [cap(name), ''];
  }

  // The legal action that an analysis option begins with (what to tap now to follow it),
  // or null. An auction's ceiling "up to X" begins with the lowest legal bid.
  function optionAction(name, legal) {
    if (legal.includes(name)) return name;
    if (legal.includes('place ' + name)) return 'place ' + name;
    if (/^up to \d+$/.test(name)) {
      const bids = legal.filter(a => /^bid \d+$/.test(a)).map(a => Number(a.slice(4)));
      return bids.length ? 'bid ' + Math.min(...bids) : null;
    }
    const moves = name === 'none' ? 'none' : (pilotMoves(name) || []).map(([g, d]) => `${g} ${d}`).join(', ');
    const pilot = legal.find(a => / pilot: /.test(a) && a.slice(a.indexOf(': ') + 2) === moves);
    if (pilot) return pilot;
    if (legal.includes('plunder: ' + name)) return 'plunder: ' + name;
    const displace = /^(board \w+) displace (\d+)$/.exec(name);
    if (displace && legal.includes(`${displace[1]}, displacing seat ${displace[2]}`)) {
      return `${displace[1]}, displacing seat ${displace[2]}`;
    }
    const [share, placed] = name.includes('; ') ? name.split('; ') : [null, name];
    if (share !== null && legal.includes(share)) return share;
    const pairs = goodsOf(placed);
    if (!pairs.every(p => p.length === 2)) return null;
    const leave = legal.find(a => /^leave \w+ home$/.test(a) && !pairs.some(p => p[0] === a.split(' ')[1]));
    if (leave) return leave;
    const start = 'start ' + pairs.map(p => p[1]).join('-');
    return legal.includes(start) ? start : null;
  }

  // What a spot or cost reads as: "pay 4", "receive 10" for insurance (its cost is -10).
  const costText = cost => (cost < 0 ? names.receive.replace('{}', String(-cost)) : String(cost));

  // A decision's kind (analysis and review name them) in words.
  const kind = k => KINDS[k] || (k in names.labels ? label(k).toLowerCase() : k.replace(/_/g, ' '));

  return {label, option, action, optionAction, costText, cap, kind};
}
