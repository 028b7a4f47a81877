// The page's engine thread: evaluations and advice run here, so that a long search never
// freezes the page, and a search for a board that has changed is stopped by ending the
// worker (index.html starts a new one). Messages: {id, op: 'load'} first, then
// {id, op: 'call', args: [route, body]} (or the page's 'evaluate' | 'advise', args); answers
// {id, ok, result | error, ms}.
import {loadEngine} from './engine.js';

let ready = null;  // the engine, once loaded; messages that come meanwhile wait for it

self.onmessage = async ({data}) => {
  const {id, op} = data;
  try {
    if (op === 'load') {
      ready = loadEngine(new URL('manila.wasm', import.meta.url));
      await ready;
      self.postMessage({id, ok: true, result: null});
      return;
    }
    const engine = await ready;
    const started = performance.now();
    if (!['call', 'evaluate', 'advise'].includes(op)) throw new Error(`unknown operation ${op}`);
    const result = engine[op](...data.args);
    self.postMessage({id, ok: true, result, ms: performance.now() - started});
  } catch (e) {
    self.postMessage({id, ok: false, error: String((e && e.message) || e)});
  }
};
