// The engine's JavaScript boundary under Node (node --test), run by tests/test_wasm.py:
// MANILA_SITE is a folder `python -m manila web` wrote, MANILA_CASES a JSON file of states
// with what manila.evaluate and manila.advise (exact) say of them.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {test} from 'node:test';

const site = process.env.MANILA_SITE;
const {EngineError, loadEngine} = await import(join(site, 'engine.js'));
const names = JSON.parse(readFileSync(join(site, 'names.json'), 'utf8'));
const engine = await loadEngine(readFileSync(join(site, 'manila.wasm')), names);
const cases = JSON.parse(readFileSync(process.env.MANILA_CASES, 'utf8'));
const good = cases.evaluate[0].state;

test('evaluations equal manila.evaluate, exactly', () => {
  for (const {state, expected} of cases.evaluate) assert.deepEqual(engine.evaluate(state, {exact: true}), expected);
});

test('advice equals manila.advise, exactly', () => {
  for (const {position, expected} of cases.advise) {
    const got = engine.advise(position, {exact: true});
    for (const key of ['to_move', 'options', 'best', 'line', 'payoffs']) assert.deepEqual(got[key], expected[key], key);
  }
});

test('bad input throws the engine\'s own message, and the engine goes on', () => {
  const before = engine.evaluate(good, {exact: true});
  for (const [bad, words] of [
    [{...good, next_roll: 7}, /^next_roll: must be 1, 2 or 3, got 7/],
    [{...good, boats: {...good.boats, [Object.keys(good.boats)[0]]: {position: 99, crew: []}}}, /position/],
    [{...good, shares: {[good.player]: {[Object.keys(good.boats)[0]]: 9}}, objective: 'wealth'}, /shares/],
  ]) {
    assert.throws(() => engine.evaluate(bad), err => err instanceof EngineError && words.test(err.message));
    assert.deepEqual(engine.evaluate(good, {exact: true}), before);
  }
});

test('numbers and players beyond any game are refused naming the field and the bound', () => {
  const owners = 'abcdefghijk'.split('');
  const spots = ['port_a', 'port_b', 'port_c', 'shipyard_a', 'shipyard_b', 'shipyard_c', 'pilot_small',
    'pilot_large', 'pirate_1', 'pirate_2', 'insurance'];
  const crowded = {...good, player: undefined, spots: Object.fromEntries(spots.map((s, k) => [s, owners[k]]))};
  for (const [bad, words] of [
    [crowded, /at most 5/],
    [{...good, objective: 'wealth', budget: {[good.player]: 1e30}}, /out of range/],
    [{...good, objective: 'wealth', budget: {[good.player]: 2 ** 32}}, /out of range/],
    [{...good, objective: 'wealth', budget: {[good.player]: 20000}}, /budget/],
  ]) assert.throws(() => engine.evaluate(bad), err => err instanceof EngineError && words.test(err.message));
});

test('a state the page could not send is refused in words, not a trap', () => {
  assert.throws(() => engine.evaluate({...good, boats: {}}), /boats: exactly 3 goods sail/);
  assert.throws(() => engine.evaluate({...good, next_roll: 1.5}), /not an integer/);
  assert.throws(() => engine.advise({...good, moment: {kind: 'pilot_small'}}), /only placement advice/);
});
