import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ClubCommands } from '../../../commands/clubCommands.js';
import { nameToRemember } from '../../../domain/club.js';
import type { ReadModelReader } from '../../../readmodel/readModel.js';
import type { ReturnTo } from '../views/matchDecisions.js';
import { clubOf, context, syncedMatch } from './clubPage.js';
import { MatchParams } from './clubDataSchemas.js';
import { CountingBody, SideBody } from './decisionSchemas.js';

export interface DecisionRoutesDeps {
  clubs: ClubCommands;
  readModel: ReadModelReader;
}

const backTo = (returnTo: ReturnTo, matchId: string, done: string) =>
  returnTo === 'match'
    ? `/dashboard/matches/${encodeURIComponent(matchId)}?done=${done}`
    : returnTo === 'sync'
      ? `/dashboard/connect/sync-status?done=${done}`
      : `/dashboard/matches?done=${done}`;

/** The admin's decisions about a match: recorded in the club's stream, so a rebuild gives the same numbers. */
export const decisionRoutes: FastifyPluginAsyncTypebox<DecisionRoutesDeps> = async (app, { clubs, readModel }) => {
  app.post('/matches/:matchId/side', { schema: { params: MatchParams, body: SideBody } }, async (request, reply) => {
    const club = clubOf(request);
    const { matchId } = request.params;
    const { side } = request.body;
    const match = await syncedMatch(readModel, club.clubId, matchId);
    // "Remember this name": the chosen side's name becomes an alias of the match's team, in the same append.
    const name = (side === 'home' ? match.home.name : match.away.name) ?? '';
    const team = club.teams.find((t) => t.teamId === match.teamId);
    const verdict = request.body.remember === 'yes' && team !== undefined ? nameToRemember(club, team, name) : null;
    await clubs.settleMatchSide(club.clubId, matchId, side, context(request), verdict === 'new' && team ? { teamId: team.teamId, name } : undefined);
    const done = verdict === 'new' ? 'side-settled-remembered' : verdict === 'full' ? 'side-settled-aliases-full' : 'side-settled';
    return reply.redirect(backTo(request.body.returnTo, matchId, done), 303);
  });

  app.post('/matches/:matchId/counting', { schema: { params: MatchParams, body: CountingBody } }, async (request, reply) => {
    const club = clubOf(request);
    const { matchId } = request.params;
    await syncedMatch(readModel, club.clubId, matchId);
    const counted = request.body.counted === 'yes';
    await clubs.setMatchCounted(club.clubId, matchId, counted, context(request));
    return reply.redirect(backTo(request.body.returnTo, matchId, counted ? 'match-included' : 'match-excluded'), 303);
  });
};
