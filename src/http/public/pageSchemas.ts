import { Type } from '@sinclair/typebox';
import { Revision } from '../querySchemas.js';

/*
 * The query strings of the match pages. Other parameters (a shared link's utm_source, a cache
 * buster) are let through and ignored; a known one with a bad value is a 400 page saying what to fix.
 */

const PlaysPage = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'a page of plays: 1, 2, …' });

/** `/match/:id`: the current version, an old one (`revision`), the live part (`part=main`) or a page of plays (`part=plays&page=N`). */
export const MatchPageQuery = Type.Object({
  revision: Type.Optional(Revision("the version to show, a revision from the match's history")),
  part: Type.Optional(Type.Union([Type.Literal('main'), Type.Literal('plays')], { description: 'main or plays' })),
  page: Type.Optional(PlaysPage),
});

/** `/match/:id/embed`: the widget, or its live part. */
export const EmbedQuery = Type.Object({
  part: Type.Optional(Type.Literal('main', { description: 'main, or nothing for the whole widget' })),
});

/** `/match/:id/card.png`: the card of a version (the current one without `revision`). */
export const CardQuery = Type.Object({
  revision: Type.Optional(Revision("the version the card shows, a revision from the match's history")),
});

/** `/match/:id/history`: newest or oldest first, from a revision (the previous page's link). */
export const HistoryPageQuery = Type.Object({
  order: Type.Optional(Type.Union([Type.Literal('newest'), Type.Literal('oldest')], { description: 'newest or oldest' })),
  from: Type.Optional(Revision("the revision the page starts at, from the previous page's link")),
});
