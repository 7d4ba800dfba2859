// A live page: swap in the fragment each "board" event carries, show how many watch. No reload, no cookies.
"use strict";
(function () {
  var live = document.getElementById("live");
  if (!live || !live.dataset.events || !window.EventSource) { return; }
  var watchers = document.getElementById("watchers");
  var conn = document.getElementById("conn");
  var announce = document.getElementById("announce");
  var source = new EventSource(live.dataset.events);
  source.addEventListener("board", function (event) {
    var data = JSON.parse(event.data);
    live.innerHTML = data.html;  // rendered and escaped by the server
    live.dataset.seq = String(data.seq);
    live.querySelectorAll("[data-self-link]").forEach(function (link) { link.href = window.location.href; });
    var story = live.querySelector(".story li:last-child");
    var turn = live.querySelector(".result, .turn");
    if (announce) { announce.textContent = [story && story.textContent, turn && turn.textContent].filter(Boolean).join(" "); }
    document.dispatchEvent(new CustomEvent("puluc:update", { detail: { seq: data.seq } }));
    var grid = live.querySelector("[data-status]");
    if (grid && grid.dataset.status !== "running" && grid.dataset.status !== "lobby") {
      // The game is over (won, resigned, timed out or called off): nothing more will come, so no longer live.
      source.close();
      live.dataset.ended = "true";
      var badge = document.getElementById("badge");
      if (badge) { badge.hidden = true; }
      if (conn) { conn.hidden = true; }
    }
  });
  source.addEventListener("watchers", function (event) {
    if (watchers) { watchers.textContent = JSON.parse(event.data).text; }
  });
  source.addEventListener("open", function () {
    live.dataset.connected = "true";
    if (conn) { conn.hidden = true; }
  });
  source.addEventListener("error", function () {
    live.dataset.connected = "false";
    if (conn) { conn.hidden = false; }
  });
})();
