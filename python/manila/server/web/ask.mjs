// The page's one way to an answer: ask(route, body, {onProgress, signal}) -> {status, body},
// exactly what POST /v1/<route> of `python -m manila serve` answers (docs/http.md).
//
// The request goes to a worker (worker.js) that runs the engine compiled to WebAssembly,
// whose call(route, body) answers as the server does; only where no engine starts (an
// installation without manila.wasm, an old browser, a page opened as a file) does it go
// to the server. The answers are the same by contract, so nothing else in the page knows
// which one answered.
//
// The worker protocol (worker.js): the worker says {ready: true} or {ready: false, error}
// once; then the page sends {id, route, body} and the worker answers {id, progress:
// {done, total}} any number of times, then {id, status, body}. A call into the engine
// cannot be interrupted (the worker reads no message until it returns), so cancelling
// ends the worker, and the next request starts a fresh one.

const BUSY_RETRIES = 5;  // a server busy with other searches (503): ask again this often

export class AbortError extends Error {
  constructor() { super('cancelled'); this.name = 'AbortError'; }
}

export class Gateway {
  // makeWorker(): a new Worker (or anything with postMessage, terminate, onmessage,
  // onerror); fetch: the window's; server: ask the server only (#engine=server); lanes:
  // workers at most, so that a long search never holds up a quick evaluation.
  constructor({makeWorker, fetch, server = false, lanes = 2, sleep}) {
    this.makeWorker = makeWorker;
    this.fetch = fetch;
    this.lanes = lanes;
    this.sleep = sleep || (ms => new Promise(done => setTimeout(done, ms)));
    this.workers = [];
    this.queue = [];
    this.next = 0;
    this.engine = server ? Promise.resolve(false) : null;  // resolves: whether an engine runs here
    this.why = server ? 'the address asks for the server (#engine=server)' : '';
  }

  // Whether the engine runs in this browser (true) or the server answers (false).
  where() {
    if (!this.engine) {
      if (!this.makeWorker) { this.engine = Promise.resolve(false); this.why = 'no worker'; }
      else this.engine = this.spawn().ready.then(ok => ok, () => false);
    }
    return this.engine;
  }

  async ask(route, body, {onProgress, signal} = {}) {
    if (signal && signal.aborted) throw new AbortError();
    if (await this.where()) {
      const answer = await this.onWorker(route, body, onProgress, signal);
      // An engine older than the route (404): the server may still know it.
      if (answer.status !== 404) return answer;
    }
    return this.onServer(route, body, signal);
  }

  spawn() {
    const worker = this.makeWorker();
    const lane = {worker, job: null, ready: null};
    lane.ready = new Promise(resolve => {
      worker.onmessage = ({data}) => {
        if ('ready' in data) {
          if (!data.ready) this.why = data.error || 'the engine did not start';
          resolve(Boolean(data.ready));
          return;
        }
        const job = lane.job;
        if (!job || data.id !== job.id) return;
        if (data.progress) { if (job.onProgress) job.onProgress(data.progress); return; }
        lane.job = null;
        job.resolve({status: data.status, body: data.body});
        this.pump();
      };
      worker.onerror = event => {
        this.why = (event && event.message) || 'the engine did not start';
        resolve(false);
        this.retire(lane, {status: 500, body: {errors: [{path: '', message: `the engine stopped: ${this.why}`}]}});
      };
    });
    this.workers.push(lane);
    return lane;
  }

  // A lane ends: its worker is terminated, and its job (if any) is answered with `answer`.
  retire(lane, answer) {
    lane.worker.terminate();
    this.workers = this.workers.filter(l => l !== lane);
    const job = lane.job;
    lane.job = null;
    if (job) job.finish(answer);
    this.pump();
  }

  onWorker(route, body, onProgress, signal) {
    return new Promise((resolve, reject) => {
      const job = {id: ++this.next, route, body, onProgress, resolve};
      job.finish = answer => (answer instanceof Error ? reject(answer) : resolve(answer));
      if (signal) {
        signal.addEventListener('abort', () => {
          const lane = this.workers.find(l => l.job === job);
          if (lane) this.retire(lane, new AbortError());
          else if (this.queue.includes(job)) {
            this.queue = this.queue.filter(j => j !== job);
            reject(new AbortError());
          }
        }, {once: true});
      }
      this.queue.push(job);
      this.pump();
    });
  }

  // Hands queued jobs to idle lanes, starting workers up to the number of lanes.
  pump() {
    while (this.queue.length) {
      let lane = this.workers.find(l => !l.job);
      if (!lane && this.workers.length < this.lanes) lane = this.spawn();
      if (!lane) return;
      const job = this.queue.shift();
      lane.job = job;
      lane.ready.then(ok => {
        if (lane.job !== job) return;
        if (ok) lane.worker.postMessage({id: job.id, route: job.route, body: job.body});
        else this.retire(lane, {status: 404, body: {errors: [{path: '', message: this.why}]}});
      });
    }
  }

  async onServer(route, body, signal) {
    for (let attempt = 0; ; attempt++) {
      let res;
      try {
        res = await this.fetch('/v1/' + route, {
          method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body), signal});
      } catch (e) {
        if (e && e.name === 'AbortError') throw new AbortError();
        return {status: 0, body: null};  // no server at all
      }
      let data = null;
      try { data = await res.json(); } catch (e) { data = null; }  // a static host's own 404 page
      if (res.status === 503 && attempt < BUSY_RETRIES) {
        const wait = Number(res.headers && res.headers.get && res.headers.get('Retry-After')) || 1;
        await this.sleep(1000 * Math.min(10, wait));
        if (signal && signal.aborted) throw new AbortError();
        continue;
      }
      return {status: res.status, body: data};
    }
  }
}

// The page's gateway: the worker beside this module; #engine=server in the address, or a
// page opened as a file (whose worker browsers refuse), asks the server.
let gateway = null;

function pageGateway() {
  if (!gateway) {
    const hash = new URLSearchParams(location.hash.slice(1));
    const usable = typeof Worker !== 'undefined' && typeof WebAssembly !== 'undefined' && location.protocol !== 'file:';
    gateway = new Gateway({
      makeWorker: usable ? () => new Worker(new URL('worker.js', import.meta.url), {type: 'module'}) : null,
      fetch: (...args) => fetch(...args),
      server: hash.get('engine') === 'server',
    });
    if (!usable) gateway.why = location.protocol === 'file:' ? 'opened as a file' : 'no WebAssembly or workers here';
  }
  return gateway;
}

export function ask(route, body, options) {
  return pageGateway().ask(route, body, options);
}

// {browser: whether the engine runs here, why: if not, why not}: for the line that says
// where the page computes.
export async function where() {
  const g = pageGateway();
  const browser = await g.where();
  return {browser, why: g.why};
}
