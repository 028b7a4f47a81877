// words.mjs under Node (run by tests/test_page_modules.py): MANILA_NAMES is the page's
// names (names.json of a written site), MANILA_OPTIONS the analysis options of real
// decisions with the action each begins with, as the library says.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';
import {makeWords, signed, toNumber, withInterval} from '../../python/manila/server/web/words.mjs';

const names = JSON.parse(readFileSync(process.env.MANILA_NAMES, 'utf8'));
const W = makeWords(names);

test('numbers as the page writes them', () => {
  assert.equal(toNumber('41/24'), 41 / 24);
  assert.equal(toNumber(-2.5), -2.5);
  assert.equal(signed(1.234), '+1.23');
  assert.equal(signed(-0.5), '−0.50');
  assert.equal(signed(-0.001), '0.00');  // no "−0.00"
  assert.equal(withInterval(2, 0.4), '+2.00 ± 0.40');
  assert.equal(withInterval(2, 0), '+2.00');
});

test('options in words: no spot ids, no raw names', () => {
  const cases = {
    pilot_large: 'Large pilot', jade: 'Jade seat', decline: names.decline, none: 'No move',
    'jade+1': 'Jade 1 forward', 'ginseng+1 silk-2': 'Ginseng 1 forward, Silk 2 back',
    'board silk': 'Board the silk boat', 'board silk displace 2': 'Board the silk boat, displacing seat 2',
    'up to 15': 'Bid up to 15', pass: 'Pass', stay: 'Stay on the pirate ship',
    'all to Manila': 'All to Manila', 'ginseng, jade to the shipyard': 'Ginseng, jade to the shipyard',
    'buy nutmeg; nutmeg 5, silk 0, jade 4': 'Buy nutmeg; start Nutmeg 5 · Silk 0 · Jade 4 (ginseng stays home)',
    'buy nothing; ginseng 4, nutmeg 5, silk 0': 'Buy no share; start Ginseng 4 · Nutmeg 5 · Silk 0 (jade stays home)',
    'nutmeg 5, silk 3, jade 1': 'start Nutmeg 5 · Silk 3 · Jade 1 (ginseng stays home)',
  };
  for (const [name, words] of Object.entries(cases)) assert.equal(W.option(name), words, name);
  for (const [id] of names.spots) assert.doesNotMatch(W.option(id), /_/);
});

test("a game's actions on their buttons", () => {
  const view = {boats: {jade: {position: 3, crew: [1]}, silk: {position: 2, crew: []}}, prices: {silk: 10}};
  assert.deepEqual(W.action('place jade', view), ['Jade seat', 'pay ' + names.seats.jade[1]]);
  assert.deepEqual(W.action('place port_b', view)[0], 'Port B');
  assert.deepEqual(W.action('buy silk', view), ['Buy silk', 'price 10']);
  assert.deepEqual(W.action('leave jade home', view), ['Jade stays home', '']);
  assert.equal(W.action('start 1-2-6', {boats: {}, stays_home: 'ginseng'})[0], 'Nutmeg 1 · Silk 2 · Jade 6');
  assert.equal(W.kind('pilot_small'), 'small pilot');
  assert.equal(W.costText(-10), names.receive.replace('{}', '10'));
});

test('each analysis option begins with the action the library says', () => {
  const cases = JSON.parse(readFileSync(process.env.MANILA_OPTIONS, 'utf8'));
  assert.ok(cases.length > 20);
  const kinds = new Set();
  for (const {option, legal, action, kind} of cases) {
    assert.equal(W.optionAction(option, legal), action, `${kind}: ${option}`);
    kinds.add(kind);
  }
  for (const k of ['auction', 'harbour_master', 'placement']) assert.ok(kinds.has(k), k);
  assert.equal(W.optionAction('up to 3', ['pass', 'mortgage']), null);  // nothing to bid with
});
