// engine.call under Node (node --test), run by tests/test_wasm.py: MANILA_SITE is a folder
// `python -m manila web` wrote, MANILA_CASES a JSON list of requests (route, body in
// base64) with the Python server's status and answer text. Every answer must be the same,
// to the byte, but for an analysis's or a review's timing ("seconds": tests/helpers/contract.py's
// timeless).
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {test} from 'node:test';

const site = process.env.MANILA_SITE;
const {loadEngine} = await import(join(site, 'engine.js'));
const engine = await loadEngine(readFileSync(join(site, 'manila.wasm')));
const cases = JSON.parse(readFileSync(process.env.MANILA_CASES, 'utf8'));

const timeless = (route, status, text) =>
  (route === '/v1/analyse' || route === '/v1/review') && status === 200
    ? text.replace(/"seconds": [-+.e0-9]+(?=[,}])/, '"seconds": 0') : text;

test('every answer is the server\'s, to the byte', () => {
  const wrong = [];
  let reviews = 0;
  for (const {route, body, status, text} of cases) {
    let progress = 0;
    const got = engine.callText(route, new Uint8Array(Buffer.from(body, 'base64')), {onProgress: () => { progress++; }});
    if (route === '/v1/review' && status === 200) reviews += progress > 0;
    if (got.status !== status ||
        timeless(route, got.status, got.text) !== timeless(route, status, text)) {
      wrong.push({route, body: Buffer.from(body, 'base64').toString('utf8').slice(0, 300),
                  server: [status, text.slice(0, 400)], engine: [got.status, got.text.slice(0, 400)]});
    }
  }
  assert.ok(cases.length > 800, `only ${cases.length} cases`);
  assert.ok(reviews >= 2, `${reviews} whole reviews reported their progress`);
  assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} of ${cases.length} answers differ`);
});
