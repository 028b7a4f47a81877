// The page's calls of engine.js under Node (node --test), run by tests/test_wasm.py:
// MANILA_SITE is a folder `python -m manila web` wrote, MANILA_CASES a JSON file holding
// {record: a finished game}. The answers themselves are the server's (contract.test.mjs);
// here: the forms a body may take, the page's evaluate and advise, their errors, an engine
// that goes on after the engine refused a board, and a review's progress and stop.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {test} from 'node:test';

const site = process.env.MANILA_SITE;
const {EngineError, loadEngine} = await import(join(site, 'engine.js'));
const bytes = readFileSync(join(site, 'manila.wasm'));
const engine = await loadEngine(bytes);
const state = {next_roll: 3, player: 'red', boats: {ginseng: {position: 9, crew: ['red']},
  silk: {position: 11, crew: ['blue']}, jade: {position: 10, crew: []}}, spots: {pirate_1: 'blue'}};

test('a body as a value, as JSON text or as its bytes gets the same answer', () => {
  const answer = engine.call('/v1/evaluate', state);
  assert.equal(answer.status, 200);
  assert.deepEqual(engine.call('/v1/evaluate', JSON.stringify(state)), answer);
  assert.deepEqual(engine.call('/v1/evaluate', new TextEncoder().encode(JSON.stringify(state))), answer);
  assert.deepEqual(Object.keys(answer.body), ['spots', 'boats', 'incomes', 'payoffs']);
});

test('the engine loads from a compiled module too', async () => {
  const again = await loadEngine(await WebAssembly.compile(bytes));
  assert.deepEqual(again.call('/v1/validate', state), engine.call('/v1/validate', state));
});

test('the page\'s evaluate and advise are the routes\' answers', () => {
  assert.deepEqual(engine.evaluate(state, {exact: true}), engine.call('/v1/evaluate', {...state, exact: true}).body);
  assert.equal(engine.evaluate(state).spots.pirate_2.expected_net, engine.call('/v1/evaluate', state).body.spots.pirate_2.expected_net);
  const position = {...state, moment: {kind: 'placement', order: ['red', 'blue', 'green'], to_move: 'red'}};
  const advice = engine.advise(position, {exact: true});
  assert.deepEqual(advice, engine.call('/v1/advise', {...position, exact: true}).body);
  assert.match(advice.options.decline.expected_net, /^-?\d+\/\d+$/);
  const pilot = {...state, spots: {pilot_small: 'red'}, moment: {kind: 'pilot_small'}};
  assert.equal(engine.advise(pilot).kind, 'pilot_small');  // every moment, not placement alone
});

test('a refusal throws EngineError with the server\'s problems, and the engine goes on', () => {
  const before = engine.evaluate(state, {exact: true});
  for (const [bad, words] of [
    [{...state, next_roll: 7}, /^next_roll: must be 1, 2 or 3 \(the roll that comes next\), got 7$/],
    [{...state, boats: {...state.boats, silk: {position: 99, crew: []}}}, /^boats\.silk\.position: must be a space/],
    [{...state, budget: {red: 2 ** 32}}, /budget\.red: a budget .* must be at most 10240, got 4294967296/],
    [{...state, boats: {}}, /^boats: exactly three goods sail each voyage, got 0/],
  ]) {
    assert.throws(() => engine.evaluate(bad), err => err instanceof EngineError && words.test(err.message) &&
                  err.errors.length > 0);
    assert.deepEqual(engine.evaluate(state, {exact: true}), before);
  }
});

test('what the engine itself refuses traps, answers as the server does, and a fresh instance goes on', () => {
  // strict false lets a board through to the engine with more owners than it holds.
  const budget = Object.fromEntries(Array.from({length: 70}, (_, i) => [`o${i}`, 1]));
  const crowded = {...state, strict: false, budget};
  const trapped = engine.instance;
  assert.deepEqual(engine.call('/v1/evaluate', crowded),
                   {status: 400, body: {errors: [{path: '', message: 'shares, budgets: at most one entry per owner'}]}});
  // The trapped instance is dropped: what the trap cut short (its stack, its heap) would
  // pile up in it, a few thousand traps and it answers no more.
  assert.notEqual(engine.instance, trapped);
  assert.equal(engine.call('/v1/evaluate', state).status, 200);
});

test('a review reports its progress, stops when told, and the engine goes on', () => {
  const {record} = JSON.parse(readFileSync(process.env.MANILA_CASES, 'utf8'));
  const seen = [];
  const stopped = engine.call('/v1/review', {record, rollouts: 2, luck_rollouts: 2},
    {onProgress: (done, total) => { seen.push([done, total]); return done < 3; }});
  assert.equal(stopped.status, 503);
  assert.match(stopped.body.errors[0].message, /^stopped before the end/);
  assert.deepEqual(seen.map(([done]) => done), [1, 2, 3]);
  assert.ok(seen[0][1] > 50);
  assert.equal(engine.call('/v1/evaluate', state).status, 200);
});
