// ask.mjs's gateway under Node with a fake worker and a fake fetch: the protocol of
// worker.js (ready, then id'd requests, progress, answers), cancelling (the worker is
// ended and the next request gets a fresh one), and the server only without an engine.
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {AbortError, Gateway} from '../../python/manila/server/web/ask.mjs';

// A worker whose engine answers {route, echo: body}; `script` may hold a route back
// (hold: a promise the test resolves) or report progress first.
class FakeWorker {
  constructor(world, {ready = true} = {}) {
    this.world = world;
    this.terminated = false;
    world.workers.push(this);
    queueMicrotask(() => this.onmessage({data: ready ? {ready: true} : {ready: false, error: 'no wasm here'}}));
  }
  postMessage({id, route, body}) {
    this.world.sent.push({id, route, body});
    const reply = async () => {
      if (body.progress) for (let i = 1; i <= body.progress; i++) this.onmessage({data: {id, progress: {done: i, total: body.progress}}});
      if (body.hold) await body.hold;
      if (this.terminated) return;
      this.onmessage({data: route === 'unknown' ? {id, status: 404, body: {errors: []}} : {id, status: 200, body: {route, echo: body.n}}});
    };
    reply();
  }
  terminate() { this.terminated = true; }
}

function world({ready = true, fetchStatus = 200} = {}) {
  const w = {workers: [], sent: [], fetched: []};
  w.gateway = new Gateway({
    makeWorker: () => new FakeWorker(w, {ready}),
    fetch: async (url, init) => {
      w.fetched.push([url, JSON.parse(init.body)]);
      return {status: fetchStatus, headers: {get: () => '0'}, json: async () => ({from: 'server', url})};
    },
    sleep: async () => {},
  });
  return w;
}

test('requests go to the engine, answers come back by id', async () => {
  const w = world();
  const answers = await Promise.all([1, 2, 3].map(n => w.gateway.ask('evaluate', {n})));
  assert.deepEqual(answers.map(a => a.body.echo), [1, 2, 3]);
  assert.ok(answers.every(a => a.status === 200));
  assert.equal(w.fetched.length, 0);
  assert.ok(w.workers.length <= 2);  // two lanes at most
  assert.equal(new Set(w.sent.map(s => s.id)).size, 3);
});

test('progress reaches the caller before the answer', async () => {
  const w = world();
  const seen = [];
  const a = await w.gateway.ask('review', {n: 7, progress: 3}, {onProgress: p => seen.push(p)});
  assert.deepEqual(seen, [{done: 1, total: 3}, {done: 2, total: 3}, {done: 3, total: 3}]);
  assert.equal(a.body.echo, 7);
});

test('cancelling ends the worker; the next request gets a fresh one', async () => {
  const w = world();
  await w.gateway.where();
  const ctl = new AbortController();
  let release;
  const long = w.gateway.ask('analyse', {n: 1, hold: new Promise(r => { release = r; })}, {signal: ctl.signal});
  await new Promise(r => setTimeout(r, 0));
  ctl.abort();
  await assert.rejects(long, e => e instanceof AbortError && e.name === 'AbortError');
  assert.ok(w.workers[0].terminated);
  release();
  const next = await w.gateway.ask('evaluate', {n: 2});
  assert.equal(next.body.echo, 2);
  assert.ok(!w.workers[w.workers.length - 1].terminated);
  // Cancelled before it was sent: never sent.
  const early = new AbortController();
  early.abort();
  await assert.rejects(w.gateway.ask('evaluate', {n: 3}, {signal: early.signal}), AbortError);
  assert.ok(!w.sent.some(s => s.body.n === 3));
});

test('a quick request is not held up behind a long one', async () => {
  const w = world();
  let release;
  const long = w.gateway.ask('analyse', {n: 1, hold: new Promise(r => { release = r; })});
  const quick = await w.gateway.ask('evaluate', {n: 2});
  assert.equal(quick.body.echo, 2);
  release();
  assert.equal((await long).body.echo, 1);
});

test('without an engine, the server answers', async () => {
  const w = world({ready: false});
  const a = await w.gateway.ask('play', {n: 1});
  assert.deepEqual(w.fetched, [['/v1/play', {n: 1}]]);
  assert.equal(a.body.from, 'server');
  assert.equal(w.gateway.why, 'no wasm here');
  assert.equal(await w.gateway.where(), false);
});

test('an engine without the route leaves it to the server', async () => {
  const w = world();
  const a = await w.gateway.ask('unknown', {n: 1});
  assert.equal(a.body.from, 'server');
});

test('a busy server (503) is asked again; no server at all is status 0', async () => {
  const w = world({ready: false, fetchStatus: 503});
  await w.gateway.ask('analyse', {n: 1});
  assert.equal(w.fetched.length, 6);  // the first try and five more
  const down = new Gateway({makeWorker: null, fetch: async () => { throw new TypeError('offline'); }});
  assert.deepEqual(await down.ask('evaluate', {}), {status: 0, body: null});
});
