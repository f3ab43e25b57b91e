import type { Static } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../../../commands/clubCommands.js';
import type { ExistingClub } from '../../../domain/club.js';
import { notFound } from '../../../domain/errors.js';
import { isMatchId } from '../../../domain/matchId.js';
import type { ReadModelReader } from '../../../readmodel/readModel.js';
import { readClubMatch } from '../../../../projections/clubDashboard.js';
import { classifyClientAddress } from '../../clientAddress.js';
import { formRefusal } from '../../errorHandling.js';
import type { DashboardSection, Frame } from '../views/frame.js';
import type { StatsQuery } from './clubDataSchemas.js';

/** What every page behind the login shares: the signed-in club, its frame, forms and messages. */

export const HTML = 'text/html; charset=utf-8';

/** The club whose admin is signed in: set by clubRoutes' hook before any page's handler runs. */
export function clubOf(request: FastifyRequest): ExistingClub {
  if (request.dashboardClub === null) throw new Error('page behind the login reached without a club');
  return request.dashboardClub;
}

export const frame = (request: FastifyRequest, reply: FastifyReply, section: DashboardSection): Frame => ({
  clubName: clubOf(request).name,
  csrfToken: reply.generateCsrf(),
  section,
});

export const context = (request: FastifyRequest): RequestContext => ({ requestId: request.id, clientAddressClass: classifyClientAddress(request.ip) });

/** What a page says above its content: a confirmation, or why a form was refused. */
export interface Messages {
  info: string | null;
  error: string | null;
}

/** Runs a form's command; input the domain refuses shows the form again with the reason instead of an error page. */
export async function submitForm(command: () => Promise<FastifyReply>, formAgain: (messages: Messages, status: number) => Promise<FastifyReply>) {
  try {
    return await command();
  } catch (error) {
    const refused = formRefusal(error, ['validation']);
    return formAgain({ info: null, error: refused.message }, refused.statusCode);
  }
}

/** Messages after a redirect, by a fixed code: no text from the request is shown back. */
const DONE: Record<string, string> = {
  welcome: 'Your club is ready. Add your teams, then generate an app key under Connect.',
  'team-added': 'Team added.',
  'team-renamed': 'Team renamed.',
  'key-revoked': 'App key revoked: it no longer authenticates any sync.',
  'aliases-saved': 'Aliases saved: uploads naming the team this way are matched to it.',
  'key-required': 'From now on, every sync into your club needs a valid app key; syncs without one are skipped.',
  'key-not-required': 'Syncs without a valid app key follow the service-wide setting again.',
  'side-settled': 'Side saved: the match counts for your team, and later uploads of it keep this side.',
  'side-settled-remembered':
    'Side saved, and its name remembered as a name of your team (under Teams): later matches naming your team this way are matched to it.',
  'side-settled-aliases-full': 'Side saved, but its name was not remembered: the team already has 10 other names. Remove one under Teams to add it.',
  'match-excluded': 'The match no longer counts in players and stats.',
  'match-included': 'The match counts in players and stats again.',
  'match-erased': 'The match was erased: it is gone from matchlog, its pages and this dashboard. The log keeps who asked and why.',
  'webhook-enabled': 'The endpoint is enabled again: what syncs from now on is sent to it, and deliveries still pending go out.',
  'webhook-paused': 'The endpoint is paused: nothing is sent or queued for it until you enable it again.',
  'webhook-removed': 'Endpoint removed: nothing more is sent to it.',
  'webhook-redeliver': 'The webhook is sent again within seconds, with the same webhook-id.',
  'publicity-saved': 'Saved: public pages show this from now on.',
};
export const doneMessage = (done: string | undefined) => (done === undefined ? null : (DONE[done] ?? null));

/** The club's team of that id, or undefined (all teams) for any other value. */
export const teamOf = (club: ExistingClub, teamId: string | undefined) => (club.teams.some((t) => t.teamId === teamId) ? teamId : undefined);
export const teamNameOf = (club: ExistingClub) => (teamId: string) => club.teams.find((team) => team.teamId === teamId)?.name ?? teamId;

const blankToUndefined = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);
/** The stats' and exports' filter: a blank field filters nothing. */
export const filterOf = (club: ExistingClub, query: Static<typeof StatsQuery>) => ({
  teamId: teamOf(club, blankToUndefined(query.team)),
  season: blankToUndefined(query.season),
  category: blankToUndefined(query.category),
  competition: blankToUndefined(query.competition),
});

/** Pages and decisions are about matches synced into this club only. */
export async function syncedMatch(readModel: ReadModelReader, clubId: string, matchId: string) {
  const match = isMatchId(matchId) ? await readClubMatch(readModel, clubId, matchId) : null;
  if (match === null) throw notFound(`no match ${matchId} was synced into this club`);
  return match;
}
