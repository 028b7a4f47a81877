// The page's engine thread: a thin host of the engine's call(route, body), which answers
// every POST route of the HTTP API as the server does (engine.js). Long work runs here so
// that the page never freezes. The protocol is ask.mjs's: {ready} once the engine has
// loaded (or failed to), then for each {id, route, body} any number of {id, progress}
// and one {id, status, body}.
import {loadEngine} from './engine.js';

const engine = loadEngine(new URL('manila.wasm', import.meta.url)).then(e => {
  if (typeof e.call !== 'function') throw new Error('this manila.wasm answers no routes (an older build)');
  return e;
});

engine.then(() => self.postMessage({ready: true}),
            e => self.postMessage({ready: false, error: String((e && e.message) || e)}));

self.onmessage = async ({data}) => {
  const {id, route, body} = data;
  let answer;
  try {
    const e = await engine;
    const onProgress = (done, total) => self.postMessage({id, progress: {done, total}});
    // The engine names its routes by their paths, as the server does.
    answer = await e.call('/v1/' + route, body, {onProgress});
  } catch (e) {
    // The engine reports bad input as an answer; a throw is the engine's own failure.
    answer = {status: 500, body: {errors: [{path: '', message: `the engine failed: ${(e && e.message) || e}`}]}};
  }
  self.postMessage({id, status: answer.status, body: answer.body});
};
