// matchlog match pages: live updates (Server-Sent Events), local times, sortable tables.
// Same-origin, no framework. New markup comes from the server already escaped and is
// parsed with DOMParser (scripts in it never run; the CSP forbids inline ones anyway).
(function () {
  'use strict';

  var timeFormat = new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

  function localTimes(root) {
    root.querySelectorAll('time[data-local]').forEach(function (el) {
      var ms = Date.parse(el.getAttribute('datetime'));
      if (!Number.isNaN(ms)) el.textContent = timeFormat.format(ms);
    });
  }

  function cellValue(row, index) {
    var cell = row.children[index];
    if (!cell) return null;
    var sort = cell.getAttribute('data-sort');
    if (sort !== null && sort !== '') return Number(sort);
    var text = cell.textContent.trim();
    return text === '' ? null : text;
  }

  // Each body sorts on its own (starters, then the bench below its heading row).
  function sortTable(table, index, direction) {
    Array.prototype.forEach.call(table.tBodies, function (body) {
      sortBody(body, index, direction);
    });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      if (i === index) th.setAttribute('aria-sort', direction);
      else th.removeAttribute('aria-sort');
    });
  }

  function sortBody(body, index, direction) {
    var rows = Array.prototype.filter.call(body.rows, function (row) {
      return !row.classList.contains('group');
    });
    rows.sort(function (a, b) {
      var x = cellValue(a, index);
      var y = cellValue(b, index);
      if (x === null && y === null) return 0;
      if (x === null) return 1; // blanks last, whichever the direction
      if (y === null) return -1;
      var order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return direction === 'ascending' ? order : -order;
    });
    rows.forEach(function (row) {
      body.appendChild(row);
    });
  }

  var sortState = {};

  function sortable(root) {
    root.querySelectorAll('table[data-sortable]').forEach(function (table, t) {
      var headers = table.tHead ? table.tHead.rows[0].cells : [];
      Array.prototype.forEach.call(headers, function (th, index) {
        var button = th.querySelector('button.sort');
        if (!button) return;
        button.addEventListener('click', function () {
          var current = th.getAttribute('aria-sort');
          // Stats sort highest first; the player column (shirt order) lowest first.
          var direction = current ? (current === 'descending' ? 'ascending' : 'descending') : index === 0 ? 'ascending' : 'descending';
          sortState[t] = { index: index, direction: direction };
          sortTable(table, index, direction);
        });
      });
      var kept = sortState[t];
      if (kept) sortTable(table, kept.index, kept.direction);
    });
  }

  function scrollCues(root) {
    root.querySelectorAll('.scroll:not(.fit)').forEach(function (box) {
      if (box.scrollWidth <= box.clientWidth + 1 || (box.previousElementSibling && box.previousElementSibling.classList.contains('scroll-cue'))) return;
      var cue = document.createElement('p');
      cue.className = 'scroll-cue';
      cue.setAttribute('aria-hidden', 'true');
      cue.textContent = 'More columns → swipe the table';
      box.parentNode.insertBefore(cue, box);
    });
  }

  function enhance(root) {
    localTimes(root);
    sortable(root);
    scrollCues(root);
  }

  function ago(ms) {
    var s = Math.round((Date.now() - ms) / 1000);
    if (s < 45) return 'just now';
    var m = Math.round(s / 60);
    if (m < 60) return m + ' min ago';
    return Math.round(m / 60) + ' h ago';
  }

  function live(bar) {
    var state = bar.querySelector('.live-state');
    var reload = bar.querySelector('.reload');
    var revision = Number(bar.getAttribute('data-revision'));
    var updatedAt = null;
    var fetching = null;
    var wanted = revision;

    function say(text, connected) {
      state.textContent = '';
      if (connected) {
        var dot = document.createElement('span');
        dot.className = 'dot-live';
        dot.setAttribute('aria-hidden', 'true');
        state.appendChild(dot);
        state.appendChild(document.createTextNode(' '));
      }
      state.appendChild(document.createTextNode(text));
    }
    // "Live" only while the page says the match is (data-status, from the payload and the time of its last upload).
    function status() {
      var main = document.getElementById('match-main');
      var live = (main ? main.getAttribute('data-status') : bar.getAttribute('data-status')) === 'live';
      if (live) say(updatedAt === null ? 'Live: updates appear here by themselves.' : 'Live · updated ' + ago(updatedAt), true);
      else say(updatedAt === null ? 'Any change appears here by itself.' : 'Updated ' + ago(updatedAt) + '.', false);
    }

    function openDetails(root) {
      var open = {};
      root.querySelectorAll('details').forEach(function (d, i) {
        open[i] = d.open;
      });
      return open;
    }

    // A failed fetch of the update is retried (2 s, 4 s, 8 s… up to 30 s) until it lands; the
    // page says so and shows its reload link meanwhile. A fetch that finds no newer revision
    // changes nothing, so a re-sync (after the phone was offline, the tab hidden) is one fetch.
    var retryTimer = null;
    var retries = 0;
    function swap() {
      if (fetching) return;
      if (retryTimer !== null) {
        clearTimeout(retryTimer);
        retryTimer = null;
      }
      var target = wanted;
      fetching = fetch(bar.getAttribute('data-part'), { headers: { accept: 'text/html' }, cache: 'no-store' })
        .then(function (response) {
          if (!response.ok) throw new Error('HTTP ' + response.status);
          return response.text();
        })
        .then(function (text) {
          retries = 0;
          reload.hidden = bar.hasAttribute('data-connected');
          var parsed = new DOMParser().parseFromString(text, 'text/html');
          var next = parsed.getElementById('match-main');
          var current = document.getElementById('match-main');
          if (!next || !current) return;
          var got = Number(next.getAttribute('data-revision'));
          if (got > wanted) wanted = got;
          if (!(got > revision)) {
            if (bar.hasAttribute('data-connected')) status();
            return;
          }
          var wasOpen = openDetails(current);
          var fresh = document.importNode(next, true);
          fresh.querySelectorAll('details').forEach(function (d, i) {
            if (i in wasOpen && i > 0) d.open = wasOpen[i];
          });
          current.replaceWith(fresh);
          revision = got;
          bar.setAttribute('data-revision', String(got));
          updatedAt = Date.now();
          enhance(fresh);
          status();
        })
        .catch(function () {
          reload.hidden = false;
          if (!navigator.onLine) {
            offline();
            return;
          }
          var delay = Math.min(30, 2 * Math.pow(2, retries));
          retries += 1;
          say('Could not load the update; trying again in ' + delay + ' s, or reload the page.', false);
          retryTimer = setTimeout(function () {
            retryTimer = null;
            swap();
          }, delay * 1000);
        })
        .then(function () {
          fetching = null;
          if (wanted > revision && wanted !== target && retryTimer === null) swap();
        });
    }

    // No network: say so (not "the server is busy"), and catch up when it is back.
    function offline() {
      reload.hidden = false;
      say('Offline: the score updates when you are back online.', false);
    }

    // Catch up: fetch the current rendering, whatever events were missed.
    function resync() {
      if (gone || !navigator.onLine) return;
      swap();
    }

    if (!window.EventSource) return;
    reload.hidden = true;
    // A refused stream (429/503: the server holds as many as it can) closes for good; a dropped
    // one is retried by the browser every few seconds. Neither may become thousands of browsers
    // knocking every 3 s: after a refusal, or a few failed retries in a row, the page shows its
    // reload link and tries again itself, later each time (30 s, 1 min, 2 min... up to 10 min, jittered).
    // Offline, nothing is counted against the server: the page waits for the `online` event.
    var failures = 0;
    var pauses = 0;
    var gone = false;
    var source = null;
    var pauseTimer = null;
    var opened = false;

    function connect() {
      if (pauseTimer !== null) {
        clearTimeout(pauseTimer);
        pauseTimer = null;
      }
      source = new EventSource(bar.getAttribute('data-live'));
      source.addEventListener('open', function () {
        bar.setAttribute('data-connected', 'true');
        failures = 0;
        pauses = 0;
        reload.hidden = true;
        status();
        // A reopened stream may have missed revisions (or their fetch failed): catch up.
        if (opened) resync();
        opened = true;
      });
      source.addEventListener('revision', function (event) {
        var data = JSON.parse(event.data);
        if (typeof data.revision !== 'number') return;
        if (data.revision > wanted) wanted = data.revision;
        if (wanted > revision) swap();
      });
      source.addEventListener('gone', function () {
        // The match was erased: nothing more will come, and what the page shows is no longer public.
        gone = true;
        source.close();
        bar.removeAttribute('data-connected');
        // Nothing of it stays on show: the score, its share links and its JSON link.
        Array.prototype.forEach.call(bar.parentNode.children, function (part) {
          if (part !== bar) part.hidden = true;
        });
        reload.hidden = false;
        say('This match is no longer available.', false);
      });
      source.addEventListener('error', function () {
        if (gone) return;
        bar.removeAttribute('data-connected');
        reload.hidden = false;
        if (!navigator.onLine) {
          // Not the server's doing: stop knocking until the phone is back online.
          source.close();
          offline();
          return;
        }
        failures += 1;
        if (source.readyState !== EventSource.CLOSED && failures < 4) {
          // EventSource reconnects by itself, sending Last-Event-ID.
          say('Reconnecting…', false);
          return;
        }
        source.close();
        var delay = Math.min(600, 30 * Math.pow(2, pauses)) * (0.5 + Math.random());
        pauses += 1;
        failures = 0;
        say('Live updates paused: the server is busy. Reload the page for the latest; updates resume by themselves.', false);
        pauseTimer = setTimeout(connect, delay * 1000);
      });
    }
    connect();
    window.addEventListener('offline', function () {
      if (!gone) offline();
    });
    window.addEventListener('online', function () {
      if (gone) return;
      // Back online: reopen a closed stream at once (its open re-syncs), and catch up now either way.
      if (source === null || source.readyState === EventSource.CLOSED) {
        failures = 0;
        connect();
      }
      resync();
    });
    document.addEventListener('visibilitychange', function () {
      if (document.visibilityState === 'visible') resync();
    });
    setInterval(function () {
      if (updatedAt !== null && bar.hasAttribute('data-connected')) status();
    }, 20000);
  }

  // Inside another site's frame (the embed), tell the parent page how tall the widget is, so the
  // snippet's script can size the frame; only a height is sent.
  function reportHeight() {
    if (window.parent === window || !document.querySelector('main.bare')) return;
    var last = 0;
    function post() {
      var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: 'matchlog:height', height: height }, '*');
    }
    post();
    if (window.ResizeObserver) new ResizeObserver(post).observe(document.documentElement);
    else window.addEventListener('resize', post);
  }

  function start() {
    enhance(document);
    reportHeight();
    var bar = document.querySelector('[data-live]');
    if (bar) live(bar);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
