// The page's engine thread: evaluations and advice run here, so that a long search never
// freezes the page, and a search for a board that has changed is stopped by ending the
// worker (index.html starts a new one). Messages: {id, op: 'load', names} first, then
// {id, op: 'evaluate' | 'advise', args}; answers {id, ok, result | error, engine}.
import {EngineError, loadEngine} from './engine.js';

let engine = null;

self.onmessage = async ({data}) => {
  const {id, op} = data;
  try {
    if (op === 'load') {
      engine = await loadEngine(new URL('manila.wasm', import.meta.url), data.names);
      self.postMessage({id, ok: true, result: null});
      return;
    }
    const started = performance.now();
    const result = engine[op](...data.args);
    self.postMessage({id, ok: true, result, ms: performance.now() - started});
  } catch (e) {
    self.postMessage({id, ok: false, error: String(e && e.message || e), engine: e instanceof EngineError});
  }
};
