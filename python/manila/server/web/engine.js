// The engine in the browser: manila.wasm (cpp/wasm/entry.cpp, built from cpp/src), which
// answers the HTTP API's POST routes exactly as the Python server does (docs/http.md,
// docs/architecture.md). This file only carries bytes: a route and a body in, a status
// and the answer's JSON out. It reads and writes no format of its own; every rule, every
// check and every word of every error is the engine's.
//
// Used by worker.js in the page, and by Node (tests/wasm/):
//   const engine = await loadEngine(bytesOrUrl);
//   engine.call('/v1/evaluate', state)      ->  {status: 200, body: {spots, boats, incomes, payoffs}}
//   engine.call('/v1/advise', position)     ->  {status: 400, body: {errors: [{path, message}]}}
//   engine.call('/v1/review', {record}, {onProgress: (done, total) => true})
// The body may be a value (sent as JSON), JSON text, or its UTF-8 bytes. Long work (a
// review) calls onProgress(done, total) after each item; returning false stops it (503).

export class EngineError extends Error {
  constructor(message, errors) {
    super(message);
    this.name = 'EngineError';
    this.errors = errors || [];
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class Engine {
  constructor(module) {
    this.module = module;
    this.instance = null;
    this.start();
  }

  // A fresh instance: at load, and after a trap (the old one may hold half-done work).
  start() {
    const wasi = {manila: {}};
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
    wasi.manila.progress = (done, total) => (self.onProgress && self.onProgress(done, total) === false ? 0 : 1);
    this.instance = new WebAssembly.Instance(this.module, wasi);
    this.instance.exports._initialize();
  }

  // The answer's status and JSON text, as the server would send them.
  callText(route, body, {onProgress = null} = {}) {
    const bytes = body instanceof Uint8Array ? body
      : encoder.encode(typeof body === 'string' ? body : JSON.stringify(body));
    const path = encoder.encode(route);
    const ex = this.instance.exports;
    const ptr = ex.manila_input(path.length + bytes.length);
    const input = new Uint8Array(ex.memory.buffer, ptr, path.length + bytes.length);
    input.set(path);
    input.set(bytes, path.length);
    this.onProgress = onProgress;
    try {
      ex.manila_call(path.length);
    } catch (e) {
      // A trap: the engine wrote its answer first (entry.cpp); read it, then start afresh.
      if (!(e instanceof WebAssembly.RuntimeError)) throw e;
      const answer = this.answer();
      this.start();
      return answer;
    } finally {
      this.onProgress = null;
    }
    return this.answer();
  }

  answer() {
    const ex = this.instance.exports;
    const text = decoder.decode(new Uint8Array(ex.memory.buffer, ex.manila_answer(), ex.manila_answer_length()));
    return {status: ex.manila_status(), text};
  }

  // The answer's status and its JSON as a value.
  call(route, body, options = {}) {
    const {status, text} = this.callText(route, body, options);
    return {status, body: JSON.parse(text)};
  }

  // The answer's value, or an EngineError listing its problems (for the page's calls).
  result(route, body) {
    const {status, body: answer} = this.call(route, body);
    if (status === 200) return answer;
    const errors = (answer && answer.errors) || [];
    throw new EngineError(errors.map(e => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ')
                          || `error ${status}`, errors);
  }

  // The page's two questions, as the server's routes answer them.
  evaluate(state, {exact = false} = {}) {
    return this.result('/v1/evaluate', exact ? {...state, exact: true} : state);
  }

  advise(position, {exact = false} = {}) {
    return this.result('/v1/advise', exact ? {...position, exact: true} : position);
  }
}

// wasmBytesOrUrl: the .wasm's bytes, a compiled WebAssembly.Module, or its URL (fetched).
export async function loadEngine(wasmBytesOrUrl) {
  let module;
  if (wasmBytesOrUrl instanceof WebAssembly.Module) module = wasmBytesOrUrl;
  else if (typeof wasmBytesOrUrl === 'string' || wasmBytesOrUrl instanceof URL) {
    const res = await fetch(wasmBytesOrUrl);
    if (!res.ok) throw new EngineError(`manila.wasm: ${res.status} ${res.statusText}`);
    module = await WebAssembly.compile(await res.arrayBuffer());
  } else module = await WebAssembly.compile(wasmBytesOrUrl);
  return new Engine(module);
}
