// A finished game's stepper: buttons, the slider and the arrow keys (Home/End too) fetch one step at a time.
"use strict";
(function () {
  var root = document.getElementById("replay");
  if (!root || !window.fetch) { return; }
  var board = document.getElementById("board");
  var caption = document.getElementById("caption");
  var slider = document.getElementById("step");
  var output = document.getElementById("position");
  var marker = document.getElementById("chart-marker");
  var chart = marker ? marker.ownerSVGElement : null;
  var last = parseInt(root.dataset.last, 10);
  var current = parseInt(root.dataset.step, 10);
  var template = root.dataset.stepUrl;
  var wanted = current;
  var busy = false;
  var cache = {};

  function moveMarker(step) {
    if (!chart) { return; }
    var left = parseFloat(chart.dataset.left), right = parseFloat(chart.dataset.right);
    var x = left + (right - left) * (last ? step / last : 0);
    marker.setAttribute("x1", x.toFixed(1));
    marker.setAttribute("x2", x.toFixed(1));
  }

  function show(data) {
    board.innerHTML = data.svg;  // drawn and escaped by the server
    caption.textContent = data.caption;
    output.textContent = data.label;
    slider.value = String(data.step);
    slider.setAttribute("aria-valuetext", data.label);
    current = data.step;
    root.dataset.step = String(current);
    moveMarker(current);
    var url = new URL(window.location.href);
    url.searchParams.set("step", String(current));
    window.history.replaceState(null, "", url.toString());
  }

  function go(step) {
    wanted = Math.max(0, Math.min(last, step));
    if (busy) { return; }
    if (cache[wanted]) { show(cache[wanted]); return; }
    busy = true;
    var asked = wanted;
    fetch(template.replace("{n}", String(asked)), { credentials: "omit" })
      .then(function (response) { if (!response.ok) { throw new Error(String(response.status)); } return response.json(); })
      .then(function (data) { cache[asked] = data; show(data); })
      .catch(function () { wanted = current; })  // the step could not be fetched: stay where we are
      .then(function () { busy = false; if (wanted !== current) { go(wanted); } });
  }

  function button(id, step) {
    var link = document.getElementById(id);
    link.addEventListener("click", function (event) { event.preventDefault(); go(step()); });
  }
  button("first", function () { return 0; });
  button("prev", function () { return current - 1; });
  button("next", function () { return current + 1; });
  button("last", function () { return last; });
  slider.addEventListener("input", function () { go(parseInt(slider.value, 10)); });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (event.target === slider) { return; }  // the slider moves itself with the arrows
    var tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") { return; }
    var step = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last }[event.key];
    if (step === undefined) { return; }
    event.preventDefault();
    go(step);
  });
  moveMarker(current);
})();
