// Keeps the pages working offline once one has loaded: the site's files come from the
// cache, refreshed from the network when there is one. Browsers run it only for a page
// served over HTTPS or from localhost; elsewhere the pages say they will not work offline
// (dom.mjs). The API (/v1/...) is never cached: the pages compute in the browser and ask
// the server only where the engine cannot.
const CACHE = 'manila-/*VERSION*/';
const FILES = /*FILES*/[];  // every file of the site, filled in by site.py

self.addEventListener('install', event => {
  event.waitUntil(caches.open(CACHE).then(cache => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', event => {
  event.waitUntil(caches.keys()
    .then(keys => Promise.all(keys.filter(k => k.startsWith('manila-') && k !== CACHE).map(k => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', event => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== location.origin || url.pathname.includes('/v1/')) return;
  // Network first (a new version shows at once), the cache when offline.
  event.respondWith(fetch(event.request).then(res => {
    if (res.ok) {
      const copy = res.clone();
      caches.open(CACHE).then(cache => cache.put(event.request, copy));
    }
    return res;
  }).catch(() => caches.match(event.request, {ignoreSearch: true})));
});
