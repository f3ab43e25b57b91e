// matchlog club dashboard: times in the admin's own zone, named, and Copy for a new app key.
// Same-origin (the dashboard's CSP allows no other script); every page works without it: times
// then read in UTC, and the new key is selected by hand.
(function () {
  'use strict';

  var timeFormat = new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });

  document.querySelectorAll('time[data-local]').forEach(function (el) {
    var ms = Date.parse(el.getAttribute('datetime'));
    if (Number.isNaN(ms)) return;
    el.title = el.textContent;
    el.textContent = timeFormat.format(ms);
  });

  // A fixture's time zone: the admin's own, where the field is still empty.
  document.querySelectorAll('input[data-own-zone]').forEach(function (el) {
    if (el.value === '') el.value = Intl.DateTimeFormat().resolvedOptions().timeZone || '';
  });

  var copy = document.querySelector('button.copy[aria-controls]');
  if (copy === null) return;
  var input = document.getElementById(copy.getAttribute('aria-controls'));
  var status = document.getElementById(copy.getAttribute('data-status'));
  if (input === null || status === null) return;
  var copied = 'Copied: paste it into your scoring app.';

  // Without the clipboard API (an http:// address other than localhost, an old browser): select the key, try the old command, else say how.
  function selectAndCopy() {
    input.focus();
    input.select();
    var done = false;
    try {
      done = document.execCommand('copy');
    } catch (_error) {
      done = false;
    }
    status.textContent = done ? copied : 'The key is selected: press Ctrl+C (⌘C on a Mac) to copy it.';
  }

  copy.hidden = false;
  copy.addEventListener('click', function () {
    status.textContent = '';
    if (navigator.clipboard && typeof navigator.clipboard.writeText === 'function') {
      navigator.clipboard.writeText(input.value).then(function () {
        status.textContent = copied;
      }, selectAndCopy);
    } else selectAndCopy();
  });
})();
