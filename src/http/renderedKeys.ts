import { type MatchPrivacy, privacyKey } from '../domain/playerPrivacy.js';

/**
 * The keys of the rendered cache (renderedPages.ts), built here and nowhere else. A match's key
 * names its kind first and the match second (`kind\0id\0…`): `matchOfKey` reads the id back, so
 * that an erasure lets go of everything kept of the match. What else a body depends on (a live
 * match gone quiet, a team's privacy, the host a page was opened by) ends the key.
 */
const SEP = '\0';

/** What a rendering depends on besides its match and version; each part absent when it does not apply. */
export interface KeyVariant {
  /** A live match with no upload for LIVE_WINDOW_MS is shown as quiet: one more rendering, keyed on it. */
  quiet?: boolean;
  privacy?: MatchPrivacy | null;
  /** The base a page was addressed to when PUBLIC_BASE_URL is unset (requestBase.ts); null or absent: the configured one. */
  base?: string | null;
}

const variantOf = ({ quiet = false, privacy = null, base = null }: KeyVariant) =>
  `${quiet ? `${SEP}quiet` : ''}${privacyKey(privacy)}${base === null ? '' : `${SEP}${base}`}`;

/** The renderings of a match's current version the pages keep (the match page, its live part, the embed and its live part). */
export type PageRendering = 'page' | 'main' | 'embed' | 'embedMain';

export const renderedKeys = {
  /** A version's summary, shared by every rendering of it (kept beside the bodies, RenderedCache.summaries). */
  summary: (id: string, revision: number) => `summary${SEP}${id}${SEP}${revision}`,
  /** A rendering of the current version. */
  page: (id: string, revision: number, rendering: PageRendering, variant: KeyVariant) =>
    `page${SEP}${id}${SEP}${revision}${SEP}${rendering}${variantOf(variant)}`,
  /** Page `number` of the current version's plays. */
  plays: (id: string, revision: number, number: number, variant: KeyVariant) => `plays${SEP}${id}${SEP}${revision}${SEP}${number}${variantOf(variant)}`,
  /** The link preview card of the current version. */
  card: (id: string, revision: number, variant: KeyVariant) => `card${SEP}${id}${SEP}${revision}${variantOf(variant)}`,
  /** The link preview card of an old version. */
  oldCard: (id: string, version: number, variant: KeyVariant) => `${keptVersionKey('card', id, version)}${variantOf(variant)}`,
  /** An old version's page or API answer, by the version its asked revision resolved to (oldVersionBodies.ts). */
  oldVersion: (kind: 'api' | 'page', id: string, version: number, variant: KeyVariant) => `${keptVersionKey(kind, id, version)}${variantOf(variant)}`,
  /** The QR code of the match's address. */
  qr: (id: string, variant: KeyVariant) => `qr${SEP}${id}${variantOf(variant)}`,
  /** The API's answer for the current version. */
  api: (id: string, revision: number, variant: KeyVariant) => `api${SEP}${id}${SEP}${revision}${variantOf(variant)}`,
  /** A club's public page, as of its data's version. */
  club: (clubId: string, version: string) => `club${SEP}${clubId}${SEP}${version}`,
  /** A team's public page for a season ('' for the latest), as of its data's version. */
  team: (clubId: string, teamId: string, season: string, version: string) => `team${SEP}${clubId}${SEP}${teamId}${SEP}${season}${SEP}${version}`,
  /** A team's calendar or Atom feed, as of its data's version. */
  teamFeed: (feed: string, clubId: string, teamId: string, version: string) => `${feed}${SEP}${clubId}${SEP}${teamId}${SEP}${version}`,
};

/** An old version's key before its variant: `kind\0id\0version\0old`. */
function keptVersionKey(kind: 'api' | 'page' | 'card', id: string, version: number): string {
  return `${kind}${SEP}${id}${SEP}${version}${SEP}old`;
}

/** The match a kept body's key names (its second part), for RenderedCache.forgetMatch. */
export const matchOfKey = (key: string): string | undefined => key.split(SEP)[1];

/** A match's version, as the small per-version caches beside the rendered one key it (team names, privacy, old revisions asked). */
export const versionKey = (id: string, revision: number) => `${id}${SEP}${revision}`;

/** The match a version key names (its first part). */
export const matchOfVersionKey = (key: string) => key.slice(0, key.indexOf(SEP));
