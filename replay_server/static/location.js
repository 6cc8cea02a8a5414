// Announces every change of the address, whether through the history API or the back and
// forward buttons, as an "lcn:location" event: the share panel and the annotation form follow
// the replay's turn through it without knowing which script moved it.
(function () {
  "use strict";
  ["pushState", "replaceState"].forEach(function (name) {
    var original = window.history[name];
    window.history[name] = function () {
      var result = original.apply(this, arguments);
      window.dispatchEvent(new Event("lcn:location"));
      return result;
    };
  });
  window.addEventListener("popstate", function () {
    window.dispatchEvent(new Event("lcn:location"));
  });
}());
