// The engine in the browser: manila.wasm (cpp/wasm/entry.cpp, built from cpp/src), read and
// written through the same JSON as the server's /v1/evaluate and /v1/advise (docs/numbers.md,
// docs/advice.md). This file only translates: names to the engine's small integers and its
// numerators back to numbers; every rule and every check is the engine's.
//
// Used by worker.js in the page, and by Node (tests/wasm/engine.test.mjs):
//   const engine = await loadEngine(bytesOrUrl, names);   // names: the page's NAMES
//   engine.evaluate(state, {exact: true})  ->  {spots, boats, incomes, payoffs}
//   engine.advise(position, {exact: true}) ->  {kind, to_move, options, best, line, payoffs}
// Bad input throws EngineError with the engine's own message (its field and rule).

export class EngineError extends Error {
  constructor(message) { super(message); this.name = 'EngineError'; }
}

const ARRIVED = 'arrived';
const DECLINE = 'decline';

function gcd(a, b) {
  a = a < 0n ? -a : a;
  while (b) [a, b] = [b, a % b];
  return a;
}

// "n/d" in lowest terms, as Python's Fraction and the server write it.
function exactText(num, den) {
  const g = gcd(num, den);
  return `${num / g}/${den / g}`;
}

export class Engine {
  constructor(module, names) {
    this.module = module;
    this.goods = names.goods;
    this.spots = names.spots.map(s => (Array.isArray(s) ? s[0] : s));
    this.tableSpots = [...this.goods, ...this.spots];
    this.accomplicesFor = names.accomplices;   // players -> accomplices each
    this.defaultAccomplices = names.default_accomplices;
    this.instance = null;
    this.start();
  }

  // A fresh instance: at load, and after a trap (the old one may hold half-done work).
  start() {
    const wasi = {};
    for (const imp of WebAssembly.Module.imports(this.module)) {
      if (imp.kind !== 'function') continue;
      wasi[imp.module] = wasi[imp.module] || {};
      wasi[imp.module][imp.name] = () => 52;  // ENOSYS: the engine needs no system but a clock
    }
    const self = this;
    const preview1 = wasi.wasi_snapshot_preview1 || {};
    preview1.clock_time_get = (id, precision, out) => {
      const now = BigInt(Math.round((globalThis.performance ? performance.now() : Date.now()) * 1e6));
      new DataView(self.instance.exports.memory.buffer).setBigUint64(out, now, true);
      return 0;
    };
    preview1.proc_exit = code => { throw new EngineError(`the engine stopped (exit ${code})`); };
    this.instance = new WebAssembly.Instance(this.module, wasi);
    this.instance.exports._initialize();
    const ex = this.instance.exports;
    const countPtr = ex.manila_input(1);
    const layoutPtr = ex.manila_layout(countPtr);
    const count = new Int32Array(ex.memory.buffer, countPtr, 1)[0];
    const [version, goods, boats, seats, spots, tableSpots, arrived, noOwner, decline, maxOwners] =
      new Int32Array(ex.memory.buffer, layoutPtr, count);
    if (version !== 1 || goods !== this.goods.length || spots !== this.spots.length) {
      throw new EngineError('manila.wasm does not match this page (rebuild the site)');
    }
    this.layout = {boats, seats, tableSpots, arrived, noOwner, decline, maxOwners};
  }

  // Runs one entry point on `input` (int32s), returns its int64 output as BigInts.
  call(entry, input) {
    let ex = this.instance.exports;
    const ptr = ex.manila_input(input.length);
    new Int32Array(ex.memory.buffer, ptr, input.length).set(input);
    let n;
    try {
      n = ex[entry]();
    } catch (e) {
      const message = this.errorText();
      this.start();
      if (e instanceof WebAssembly.RuntimeError) {
        throw new EngineError(message || `the engine failed: ${e.message}`);
      }
      throw e;
    }
    ex = this.instance.exports;
    return Array.from(new BigInt64Array(ex.memory.buffer, ex.manila_output(), n));
  }

  errorText() {
    const ex = this.instance.exports;
    const bytes = new Uint8Array(ex.memory.buffer, ex.manila_error());
    const end = bytes.indexOf(0);
    return new TextDecoder().decode(bytes.subarray(0, end < 0 ? 0 : end));
  }

  // The owners in the order the library numbers them (VoyageState.owners): crews in good
  // order, spots, the player, those named only in shares or budget, then `extra`.
  owners(state, boats, extra) {
    const seen = [];
    const add = o => { if (typeof o === 'string' && !seen.includes(o)) seen.push(o); };
    for (const [, b] of boats) (b.crew || []).forEach(add);
    for (const s of this.spots) if (state.spots && s in state.spots) add(state.spots[s]);
    add(state.player);
    Object.keys(state.shares || {}).forEach(add);
    Object.keys(state.budget || {}).forEach(add);
    (extra || []).forEach(add);
    return seen;
  }

  // The voyage as read_voyage (entry.cpp) reads it, and the names to read the answer by.
  encode(state, extra) {
    if (state === null || typeof state !== 'object') throw new EngineError('a voyage state must be a JSON object');
    const given = state.boats || {};
    for (const g of Object.keys(given)) {
      if (!this.goods.includes(g)) throw new EngineError(`boats.${g}: unknown good; the goods are ${this.goods.join(', ')}`);
    }
    const boats = this.goods.filter(g => g in given).map(g => [g, given[g]]);
    if (boats.length !== this.layout.boats) {
      throw new EngineError(`boats: exactly ${this.layout.boats} goods sail, got ${boats.length}`);
    }
    const owners = this.owners(state, boats, extra);
    const id = o => owners.indexOf(o);
    const rules = state.rules || {};
    const wealth = state.objective === 'wealth';
    const out = [state.next_roll, owners.length, rules.thirteen_after_last_roll === 'shipyard' ? 0 : 1,
                 rules.pirate_variant ? 1 : 0, wealth ? 1 : 0];
    for (const [g, b] of boats) {
      const crew = b.crew || [];
      out.push(this.goods.indexOf(g), b.position === ARRIVED ? this.layout.arrived : b.position, crew.length);
      for (let s = 0; s < this.layout.seats; s++) out.push(s < crew.length ? id(crew[s]) : this.layout.noOwner);
    }
    for (const s of this.spots) out.push(state.spots && s in state.spots ? id(state.spots[s]) : this.layout.noOwner);
    for (const g of this.goods) out.push((state.prices || {})[g] || 0);
    for (const o of owners) for (const g of this.goods) out.push(((state.shares || {})[o] || {})[g] || 0);
    for (const o of owners) out.push(o in (state.budget || {}) ? state.budget[o] : -1);
    for (const v of out) {
      if (!Number.isInteger(v)) throw new EngineError(`a number of the state is not an integer: ${JSON.stringify(v)}`);
      // The engine reads 32-bit integers: a larger number would wrap to another one.
      if (v < -(2 ** 31) || v >= 2 ** 31) throw new EngineError(`a number of the state is out of range: ${v}`);
    }
    return {input: out, owners, goods: boats.map(([g]) => g)};
  }

  accomplices(state) {
    return state.players ? this.accomplicesFor[state.players] : this.defaultAccomplices;
  }

  number(num, den, exact) {
    return exact ? exactText(num, den) : Number(num) / Number(den);
  }

  evaluate(state, {exact = false} = {}) {
    const {input, owners, goods} = this.encode(state);
    const pov = state.player === undefined || state.player === null ? this.layout.noOwner : owners.indexOf(state.player);
    const out = this.call('manila_analyse', [pov, this.accomplices(state), ...input]);
    const den = out[0];
    const T = this.layout.tableSpots;
    const at = k => out.slice(1 + k * T, 1 + (k + 1) * T);
    const [legal, cost, net] = [at(0), at(1), at(2)];
    const num = v => this.number(v, den, exact);
    const spots = {};
    this.tableSpots.forEach((name, i) => {
      if (legal[i]) spots[name] = {cost: Number(cost[i]), expected_net: num(net[i])};
    });
    let k = 1 + 3 * T;
    const boats = {};
    for (const g of goods) {
      boats[g] = {port: num(out[k]), shipyard: num(out[k + 1]), plundered: num(out[k + 2])};
      k += 3;
    }
    const incomes = {}, payoffs = {};
    owners.forEach((o, i) => { incomes[o] = num(out[k + i]); });
    owners.forEach((o, i) => { payoffs[o] = num(out[k + owners.length + i]); });
    return {spots, boats, incomes, payoffs};
  }

  // Placement advice (the page's moment); the other moments are the server's for now.
  advise(position, {exact = false} = {}) {
    const m = position.moment || {};
    if (m.kind !== 'placement') throw new EngineError(`moment.kind: only placement advice runs in the browser, not ${m.kind}`);
    const order = m.order || [];
    const toMove = m.to_move !== undefined && m.to_move !== null ? m.to_move : order[0];
    const at = order.indexOf(toMove);
    if (at < 0) throw new EngineError(`moment.to_move: ${toMove} is not in moment.order`);
    const declined = m.declined || [];
    const later = order.slice(at).filter(p => p === toMove || !declined.includes(p));
    const {input, owners} = this.encode(position, order);
    const out = this.call('manila_advise_placement',
                          [this.accomplices(position), later.length, ...later.map(p => owners.indexOf(p)), ...input]);
    const den = out[0], best = Number(out[1]);
    const name = s => (Number(s) === this.layout.decline ? DECLINE : this.tableSpots[Number(s)]);
    let k = 4;
    const options = {}, names = [];
    for (let i = 0; i < Number(out[3]); i++, k += 3) {
      names.push(name(out[k]));
      options[name(out[k])] = {cost: Number(out[k + 1]), expected_net: this.number(out[k + 2], den, exact)};
    }
    const line = [];
    const turns = Number(out[k++]);
    for (let i = 0; i < turns; i++, k += 2) line.push([owners[Number(out[k])], name(out[k + 1])]);
    const payoffs = {};
    owners.forEach((o, i) => { payoffs[o] = this.number(out[k + i], den, exact); });
    return {kind: 'placement', to_move: toMove, options, best: names[best], line, payoffs,
            positions: Number(out[2])};
  }
}

// bytesOrUrl: the .wasm's bytes, a compiled WebAssembly.Module, or its URL (fetched).
export async function loadEngine(bytesOrUrl, names) {
  let module;
  if (bytesOrUrl instanceof WebAssembly.Module) module = bytesOrUrl;
  else if (typeof bytesOrUrl === 'string' || bytesOrUrl instanceof URL) {
    const res = await fetch(bytesOrUrl);
    if (!res.ok) throw new EngineError(`manila.wasm: ${res.status} ${res.statusText}`);
    module = await WebAssembly.compile(await res.arrayBuffer());
  } else module = await WebAssembly.compile(bytesOrUrl);
  return new Engine(module, names);
}
