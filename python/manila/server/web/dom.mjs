// Small helpers every page module shares: building elements, reading the data the server
// filled into the page, and the busy bar (progress and Cancel) of long work.

export const $ = sel => document.querySelector(sel);

export function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}

// The JSON the server (or `python -m manila web`) wrote into <script type="application/json" id=...>.
export function pageData(id) {
  return JSON.parse(document.getElementById(id).textContent);
}

// A bar for one piece of long work: its progress when the engine reports it, and a Cancel
// button that stops it. start() returns what ask() takes ({signal, onProgress}) and done().
export class BusyBar {
  constructor(box) {
    this.box = box;
    this.label = el('span', {class: 'busy-label'});
    this.bar = el('progress', {max: '1'});
    this.cancel = el('button', {type: 'button', class: 'busy-cancel'}, 'Cancel');
    this.cancel.addEventListener('click', () => this.stop());
    box.replaceChildren(el('span', {class: 'spinner', 'aria-hidden': 'true'}), this.label, this.bar, this.cancel);
    box.hidden = true;
    this.controller = null;
  }

  start(text) {
    this.stop();
    const controller = new AbortController();
    this.controller = controller;
    this.label.textContent = text;
    this.bar.removeAttribute('value');  // indeterminate until the engine says how far it is
    this.box.hidden = false;
    this.box.dataset.state = 'busy';
    const onProgress = ({done, total}) => {
      if (this.controller !== controller || !(total > 0)) return;
      this.bar.value = Math.min(1, done / total);
    };
    const done = () => {
      if (this.controller !== controller) return;
      this.controller = null;
      this.box.hidden = true;
      this.box.dataset.state = 'idle';
    };
    return {signal: controller.signal, onProgress, done};
  }

  stop() {
    if (!this.controller) return;
    this.controller.abort();
    this.controller = null;
    this.box.hidden = true;
    this.box.dataset.state = 'cancelled';
  }
}

// The answer's problems as lines: "path: message".
export function problemLines(body, status) {
  const errors = body && Array.isArray(body.errors) ? body.errors : null;
  if (!errors || !errors.length) return [`error ${status}`];
  return errors.map(p => (p.path ? p.path + ': ' : '') + p.message);
}

// Once the engine runs here, a service worker keeps the site's files for offline use. Browsers
// register one only for a secure context: a page served over HTTPS or from this device
// (localhost). Served over plain HTTP from another machine (a laptop on the LAN), `where`
// says that the page will not work offline there, and how to make it.
export function keepOffline(where) {
  const said = 'Computed in your browser: no server needed';
  const say = (offline, text) => {
    if (!where) return;
    where.dataset.offline = offline;
    where.textContent = text;
  };
  const notHere = why => say('no', `${said}, but it will not work offline here: ${why}. To use it offline, ` +
    'serve it over HTTPS (any static host will do: see docs/web.md) or open it from localhost.');
  if (location.protocol === 'file:') return;
  if (!window.isSecureContext) return notHere('browsers keep a page for offline use only when it comes over HTTPS');
  if (!('serviceWorker' in navigator)) return notHere('this browser cannot keep pages for offline use');
  navigator.serviceWorker.register('sw.js').then(
    () => say('yes', `${said}, and it works offline once loaded.`),
    e => notHere(`the browser would not keep it (${e.message})`));
}
