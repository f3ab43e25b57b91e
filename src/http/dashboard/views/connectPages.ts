import type { AppKeyRecord, Team } from '../../../domain/club.js';
import { TEAM_NAME_MAX } from '../../../domain/clubIds.js';
import type { AppKeyUsageDoc, SyncLogDoc, SyncOutcome } from '../../../../projections/syncStatus.js';
import type { SyncEnforcement } from '../../../domain/clubSync.js';
import { html, SafeHtml } from '../../views/html.js';
import { csrfField, current, dashboardPage, type Frame, notice, query, scrollRegion, when } from './frame.js';
import { countingForm } from './matchDecisions.js';

export interface ClubOverview {
  clubId: string;
  teams: Team[];
}

export function connectNav(active: 'keys' | 'sync' | 'webhooks'): SafeHtml {
  return html`<nav class="sub" aria-label="connect">
<a href="/dashboard/connect"${current(active === 'keys')}>App keys</a>
<a href="/dashboard/connect/sync-status"${current(active === 'sync')}>Sync status</a>
<a href="/dashboard/connect/webhooks"${current(active === 'webhooks')}>Webhooks</a>
</nav>`;
}

function connectionDetails(club: ClubOverview): SafeHtml {
  return html`<h2>Connection details</h2>
<p>Enter these in your scoring app. Every match uploaded with <code>clubId</code> and <code>teamId</code> is copied into this dashboard; \
the app key goes in the <code>X-App-Key</code> header.</p>
<dl class="details">
<dt>clubId</dt><dd><code class="id" data-testid="club-id">${club.clubId}</code></dd>
${club.teams.map((team) => html`<dt>teamId of ${team.name}</dt><dd><code class="id" data-testid="team-id">${team.teamId}</code></dd>`)}
</dl>
${club.teams.length === 0 ? html`<p class="notice">Your club has no team yet: <a href="/dashboard/teams">add one under Teams</a> to get a teamId.</p>` : ''}`;
}

/** Whether syncs without a valid key are processed: the service-wide mode and the club's own choice. */
interface KeyRequirement {
  globalEnforcement: SyncEnforcement;
  /** Since when the club requires a key for every sync; null when it leaves it to the service-wide mode. */
  requiredSince: string | null;
}

/** One sentence on what happens to a sync without a valid key, and why. */
function requirementText(requirement: KeyRequirement): SafeHtml {
  if (requirement.requiredSince !== null) {
    return html`<strong>Required</strong> since ${when(requirement.requiredSince)}: syncs without a valid app key are skipped \
(the app hears <code>crmSync: "skipped_auth"</code>).`;
  }
  if (requirement.globalEnforcement === 'enforce') {
    return html`<strong>Required</strong> by this matchlog service for every club: syncs without a valid app key are skipped.`;
  }
  return html`<strong>Not required</strong>: syncs without a valid app key are still copied, \
flagged in Sync status, where you can exclude them from players and stats.`;
}

function requirementSection(frame: Frame, requirement: KeyRequirement): SafeHtml {
  const own = requirement.requiredSince !== null;
  return html`<h2>Require an app key for every sync</h2>
<p class="requirement" data-testid="key-requirement">${requirementText(requirement)}</p>
<form method="post" action="/dashboard/connect/key-requirement" class="inline">
${csrfField(frame.csrfToken)}
<input type="hidden" name="required" value="${own ? 'no' : 'yes'}">
<button type="submit"${own ? new SafeHtml(' class="quiet"') : ''}>${own ? 'Stop requiring an app key' : 'Require an app key for every sync'}</button>
</form>
${
  own || requirement.globalEnforcement === 'enforce'
    ? ''
    : html`<p class="hint">Turn this on once every scoring app of your club sends its app key: \
nobody without a key can then add matches to your club's numbers.</p>`
}`;
}

export interface KeysPage {
  club: ClubOverview;
  keys: AppKeyRecord[];
  usage: Map<string, AppKeyUsageDoc>;
  requirement: KeyRequirement;
  info: string | null;
  error: string | null;
}

export function renderKeysPage(frame: Frame, page: KeysPage): string {
  const rows = [...page.keys].reverse().map((key) => {
    const used = page.usage.get(key.keyId);
    const lastUse = used
      ? html`${when(used.lastUsedAt)} <span class="muted">(${used.uses} ${used.uses === 1 ? 'sync' : 'syncs'})</span>`
      : html`<span class="muted">never</span>`;
    // The key and its state first, Revoke beside them: on a phone they are in view without scrolling the table.
    return html`<tr data-key-id="${key.keyId}">
<th scope="row"><code class="prefix">${key.prefix}…</code>${key.label === '' ? '' : html`<br><span class="key-label">${key.label}</span>`}</th>
<td>${
      key.revokedAt === null
        ? html`active<form method="post" action="/dashboard/connect/keys/${key.keyId}/revoke" class="inline revoke">${csrfField(frame.csrfToken)}\
<button type="submit" class="danger" aria-label="Revoke ${key.prefix}…">Revoke</button></form>`
        : html`revoked ${when(key.revokedAt)}`
    }</td>
<td>${lastUse}</td>
<td>${when(key.issuedAt)}</td>
<td><code class="id">${key.keyId}</code></td>
</tr>`;
  });
  return dashboardPage(
    frame,
    'Connect',
    html`<h1>Connect</h1>
${connectNav('keys')}
${notice(page.info)}
${notice(page.error, 'error')}
${connectionDetails(page.club)}
<h2>Generate App Key</h2>
<p>A new key is shown once, right after you generate it. \
Several keys can be active at once: give each device or app its own, and revoke one without disturbing the others.</p>
<form method="post" action="/dashboard/connect/keys" class="inline">
${csrfField(frame.csrfToken)}
<label>Label <small>(optional, e.g. "scoring tablet")</small> <input type="text" name="label" maxlength="60"></label>
<button type="submit">Generate App Key</button>
</form>
${requirementSection(frame, page.requirement)}
<h2>App keys</h2>
${
  page.keys.length === 0
    ? html`<p class="muted">No app key yet.</p>`
    : scrollRegion(
        'app keys',
        html`<table class="app-keys">
<thead><tr><th scope="col">Starts with · label</th><th scope="col">Status</th>\
<th scope="col">Last use</th><th scope="col">Created</th><th scope="col">Id</th></tr></thead>
<tbody>${rows}</tbody></table>`,
      )
}`,
  );
}

export function renderNewKeyPage(frame: Frame, issued: { key: string; keyId: string; label: string }, club: ClubOverview, publicBaseUrl: string): string {
  const teamId = club.teams[0]?.teamId ?? '<teamId>';
  return dashboardPage(
    frame,
    'New app key',
    html`<h1>Your new app key</h1>
${connectNav('keys')}
<p class="notice"><strong>Copy it now.</strong> This is the only time the key is shown: matchlog keeps only a hash of it. \
If you lose it, generate a new one and revoke this one.</p>
<label for="new-app-key">App key ${issued.label === '' ? '' : html`<small>(${issued.label})</small>`}</label>
<div class="copy-row"><input class="secret" id="new-app-key" type="text" readonly value="${issued.key}" data-testid="new-app-key" \
aria-label="new app key" autocomplete="off" spellcheck="false">\
<button type="button" class="copy" aria-controls="new-app-key" data-status="copy-status" aria-label="Copy the app key" hidden>Copy</button></div>
<p class="copy-status" id="copy-status" role="status" data-testid="copy-status"></p>
<p>Key id <code class="id">${issued.keyId}</code>. Your app sends the key in the <code>X-App-Key</code> header with each match \
that carries your <code>clubId</code> and a <code>teamId</code>, for example:</p>
<pre class="example" tabindex="0">curl -X POST ${publicBaseUrl}/api/matches \\
  -H 'Content-Type: application/json' \\
  -H 'X-App-Key: ${issued.key}' \\
  -d '{"clubId": "${club.clubId}", "teamId": "${teamId}", "playerStats": [...], "actions": [...]}'</pre>
<p><a href="/dashboard/connect">Back to Connect</a></p>`,
  );
}

const OUTCOME_LABELS: Record<SyncOutcome, string> = {
  synced: 'synced',
  unauthenticated: 'processed without valid authentication',
  skipped: 'skipped: no valid key',
};

/** Why a sync was not authenticated or skipped, for the admin. */
export function reasonText(row: Pick<SyncLogDoc, 'reason' | 'keyId' | 'teamId'>): string {
  switch (row.reason) {
    case 'missing_key':
      return 'no X-App-Key was sent';
    case 'malformed_key':
      return 'the X-App-Key is not a well-formed app key (mistyped or cut off?)';
    case 'unknown_key':
      return 'the X-App-Key is not a key of this club';
    case 'wrong_key':
      return `the X-App-Key does not match key ${row.keyId ?? ''}`;
    case 'revoked_key':
      return `key ${row.keyId ?? ''} is revoked`;
    case 'no_such_team':
      return `this club has no team ${row.teamId}`;
    default:
      return row.reason ?? '';
  }
}

function outcomeCell(row: SyncLogDoc, keys: Map<string, AppKeyRecord>, page: Pick<SyncStatusPage, 'excludedMatches' | 'settledSides' | 'csrfToken'>): SafeHtml {
  const settled = Object.hasOwn(page.settledSides, row.matchId);
  const standing =
    row.outcome === 'skipped'
      ? ''
      : standingNote({ ...row, side: settled ? page.settledSides[row.matchId] : row.side }, Object.hasOwn(page.excludedMatches, row.matchId), page.csrfToken);
  return html`${outcomeText(row, keys)}${standing}`;
}

/** For a processed sync: side unknown (settle it on the match) and, when flagged, exclude or include. */
function standingNote(row: SyncLogDoc, excluded: boolean, csrfToken: string): SafeHtml {
  const unknown = row.side === null ? html`<br><a class="side-unknown" href="/dashboard/matches/${row.matchId}">Side unknown: say which is your team</a>` : '';
  const flagged = row.outcome === 'unauthenticated' || excluded;
  const counting = flagged
    ? html`<br>${countingForm(csrfToken, { matchId: row.matchId, home: { name: null }, away: { name: null }, side: row.side ?? null, excluded }, 'sync')}`
    : '';
  return html`${unknown}${counting}`;
}

function outcomeText(row: SyncLogDoc, keys: Map<string, AppKeyRecord>): SafeHtml {
  if (row.outcome === 'synced') {
    const key = row.keyId === null ? null : keys.get(row.keyId);
    const keyLabel = key && key.label !== '' ? html` <span class="muted">(${key.label})</span>` : '';
    return html`<span class="outcome-synced">synced</span> with key <code class="prefix">${key ? `${key.prefix}…` : row.keyId}</code>${keyLabel}`;
  }
  const label = row.outcome === 'skipped' && row.reason === 'no_such_team' ? 'skipped: unknown team' : OUTCOME_LABELS[row.outcome];
  return html`<span class="outcome-${row.outcome}">${label}</span><br><small class="muted">${reasonText(row)}</small>`;
}

export interface SyncStatusPage {
  rows: SyncLogDoc[];
  total: number;
  outcome: SyncOutcome | undefined;
  page: number;
  pageSize: number;
  teams: Team[];
  keys: AppKeyRecord[];
  matchUrl: (matchId: string) => string;
  requirement: KeyRequirement;
  excludedMatches: Record<string, string>;
  /** Sides the admin settled: a row whose upload did not tell the side is no longer "side unknown". */
  settledSides: Record<string, 'home' | 'away'>;
  csrfToken: string;
  info: string | null;
}

export function renderSyncStatusPage(frame: Frame, page: SyncStatusPage): string {
  const teamName = new Map(page.teams.map((team) => [team.teamId, team.name]));
  const keys = new Map(page.keys.map((key) => [key.keyId, key]));
  const filters: { outcome: SyncOutcome | undefined; label: string }[] = [
    { outcome: undefined, label: 'All' },
    { outcome: 'synced', label: 'Synced' },
    { outcome: 'unauthenticated', label: 'Without valid authentication' },
    { outcome: 'skipped', label: 'Skipped' },
  ];
  const rows = page.rows.map(
    (row) => html`<tr class="sync-row" data-outcome="${row.outcome}">
<th scope="row"><a href="${page.matchUrl(row.matchId)}">${row.title ?? row.matchId}</a><br><small class="muted">${when(row.at)}</small></th>
<td>${outcomeCell(row, keys, page)}</td>
<td>${teamName.get(row.teamId) ?? html`<code>${row.teamId}</code>`}<br><small class="muted">${row.matchId}</small></td>
<td class="num">${row.playersCopied}</td>
<td class="num">${row.actionsCopied}</td>
</tr>`,
  );
  const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
  const link = (n: number) => `/dashboard/connect/sync-status${query({ outcome: page.outcome, page: n > 1 ? n : undefined })}`;
  const newer = page.page > 1 ? html`<a href="${link(page.page - 1)}">← Newer</a>` : '';
  const older = page.page < pages ? html`<a href="${link(page.page + 1)}">Older →</a>` : '';
  const filterLinks = filters.map(
    (f) => html`<a href="/dashboard/connect/sync-status${query({ outcome: f.outcome })}"${current(f.outcome === page.outcome)}>${f.label}</a>`,
  );
  return dashboardPage(
    frame,
    'Sync status',
    html`<h1>Connect</h1>
${connectNav('sync')}
<h2>Sync status</h2>
${notice(page.info)}
<p class="muted">Every upload that tried to sync with this club, newest first.</p>
<p class="requirement" data-testid="key-requirement">App key: ${requirementText(page.requirement)} <a href="/dashboard/connect">Change</a></p>
<nav class="sub" aria-label="filter by outcome">${filterLinks}</nav>
${
  page.rows.length === 0
    ? html`<p class="muted">No sync ${page.outcome === undefined ? 'yet' : 'with this outcome'}.</p>`
    : html`<div class="scroll" tabindex="0" role="region" aria-label="sync status (scrolls sideways)"><table class="sync-status">
<thead><tr><th scope="col">Match</th><th scope="col">Outcome</th><th scope="col">Team</th>\
<th scope="col" class="num">Players copied</th><th scope="col" class="num">Actions copied</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}
${pages > 1 ? html`<p class="pager">${newer} <span>Page ${page.page} of ${pages}</span> ${older}</p>` : ''}`,
  );
}

export function renderTeamsPage(frame: Frame, club: ClubOverview, messages: { info: string | null; error: string | null }): string {
  return dashboardPage(
    frame,
    'Teams',
    html`<h1>Teams</h1>
${notice(messages.info)}
${notice(messages.error, 'error')}
<p>Each team has a <code>teamId</code>: a scoring app sends it with your <code>clubId</code> \
(<code class="id">${club.clubId}</code>) to sync a match into that team.</p>
${
  club.teams.length === 0
    ? html`<p class="muted">No team yet.</p>`
    : html`${scrollRegion(
        'teams',
        html`<table class="teams">
<thead><tr><th>teamId</th><th>Name</th><th>Rename</th><th>Also known as</th><th>Schedule</th></tr></thead>
<tbody>${club.teams.map(
          (team) => html`<tr><td><code class="id">${team.teamId}</code></td><td>${team.name}</td>
<td><form method="post" action="/dashboard/teams/${team.teamId}" class="inline">${csrfField(frame.csrfToken)}
<input type="text" name="name" value="${team.name}" required maxlength="${TEAM_NAME_MAX}" aria-label="new name of ${team.name}">\
<button type="submit" class="quiet">Rename</button></form></td>
<td><form method="post" action="/dashboard/teams/${team.teamId}/aliases" class="inline aliases">${csrfField(frame.csrfToken)}
<textarea name="aliases" rows="${Math.max(2, team.aliases.length + 1)}" maxlength="1000" \
aria-label="other names of ${team.name}, one per line">${team.aliases.join('\n')}</textarea>\
<button type="submit" class="quiet">Save</button></form></td>
<td><a href="/dashboard/teams/${team.teamId}/fixtures">Fixtures<span class="visually-hidden"> of ${team.name}</span></a></td></tr>`,
        )}</tbody></table>`,
      )}
<p class="hint">Scoring apps often write a team's name their own way ("Lakeside Herons U18 Girls"). \
matchlog finds your team's side of a match by the <code>teamId</code> on a side, the side the app names, \
then by the name, one of these aliases (one per line), or your club's name alone or followed by the team's ("${frame.clubName} ${club.teams[0]?.name ?? ''}"); \
case, accents, punctuation and age groups such as "U18" or "Girls" are ignored. \
When it still cannot tell, the match is marked "side unknown" and counts for neither side \
until you settle it under Matches, where "remember this name" adds the name here.</p>`
}
<p><a href="/dashboard/teams/public">Public pages and privacy of your teams' players</a></p>
<h2>Add a team</h2>
<form method="post" action="/dashboard/teams" class="inline">
${csrfField(frame.csrfToken)}
<label>Name <input type="text" name="name" required maxlength="${TEAM_NAME_MAX}" placeholder="U16 Women"></label>
<button type="submit">Add team</button>
</form>`,
  );
}
