import { ERASE_REASON_MAX } from '../../../domain/match.js';
import { html } from '../../views/html.js';
import { csrfField, dashboardPage, type Frame, notice } from './frame.js';

export interface ErasurePage {
  matchId: string;
  title: string;
  reason: string;
  error: string | null;
}

/** The confirm step of an erasure asked for from the dashboard: what it does, a reason, and a tick to say it was read. */
export function renderErasurePage(frame: Frame, page: ErasurePage): string {
  return dashboardPage(
    frame,
    'Erase a match',
    html`<h1>Erase this match for good</h1>
${notice(page.error, 'error')}
<p><strong>${page.title}</strong> <small class="muted">(${page.matchId})</small></p>
<p>Erasing removes every version of this match, its players and its play-by-play, from matchlog and from every page, \
the API and this dashboard, for good: the match page then says it was erased. Use it when a parent or a player asks \
for their data to be removed. The log keeps only that an erasure happened, with your club, your email and the reason \
(never shown publicly). Nobody can undo it; the scoring app cannot upload the match again under the same id.</p>
<form method="post" action="/dashboard/matches/${page.matchId}/erase" class="stack">
${csrfField(frame.csrfToken)}
<label>Reason <small>(kept in the log, not shown publicly; for example "a parent asked on 3 May")</small>
<textarea name="reason" required maxlength="${String(ERASE_REASON_MAX)}" rows="3">${page.reason}</textarea></label>
<label class="tick"><input type="checkbox" name="confirm" value="yes" required> <span>I understand that this erases the match for good</span></label>
<button type="submit" class="danger">Erase the match</button>
</form>
<p><a href="/dashboard/matches/${page.matchId}">Keep it and go back</a></p>`,
  );
}
