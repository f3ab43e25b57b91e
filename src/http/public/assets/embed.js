// matchlog embed snippet: keeps each framed matchlog widget as tall as its content.
// The widget (live.js, inside the frame) posts {type: 'matchlog:height', height} to its parent
// whenever its height changes; this script, loaded by the host page from the same server as
// the widget, sets the frame's height. Messages from any other origin or window are ignored.
(function () {
  'use strict';
  var script = document.currentScript;
  var origin = script ? new URL(script.src, location.href).origin : null;
  if (!origin || window.__matchlogEmbed) return;
  window.__matchlogEmbed = true;
  window.addEventListener('message', function (event) {
    if (event.origin !== origin || !event.data || event.data.type !== 'matchlog:height') return;
    var height = Number(event.data.height);
    if (!(height > 0 && height < 10000)) return;
    var frames = document.querySelectorAll('iframe');
    for (var i = 0; i < frames.length; i += 1) {
      if (frames[i].contentWindow === event.source) {
        frames[i].style.height = Math.ceil(height) + 'px';
        frames[i].setAttribute('height', String(Math.ceil(height)));
      }
    }
  });
})();
