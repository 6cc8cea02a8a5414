// The recorder's service worker (served as /record/sw.js, scope /record): the page and its
// assets stay usable without a connection. Every GET goes to the network first, and a copy
// of each answer is kept; when the network fails, the kept copy answers. POSTs (the moves,
// the table, saving) are never cached: without the network they fail, and the page says so
// and keeps the record in localStorage.
"use strict";

var CACHE = "lcn-record";

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) {
    return;
  }
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.put(request, copy); }));
    }
    return response;
  }).catch(function () {
    return caches.match(request, {ignoreSearch: request.mode === "navigate"}).then(function (kept) {
      return kept || Response.error();
    });
  }));
});
