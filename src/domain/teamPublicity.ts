/**
 * What a club lets the public see of a team (issue 61): its public page, how its players are
 * named, its roster, and whether search engines may index its pages. Pure rules; the settings
 * are club events (TeamPublicitySet), the pages apply them to what the log keeps as uploaded.
 */
export const PRIVACY_LEVELS = ['full', 'first-initial', 'initials', 'numbers'] as const;
export type PrivacyLevel = (typeof PRIVACY_LEVELS)[number];

export interface TeamPublicity {
  /** The team's page at /c/<club>/<team> (also needs the club's page on). */
  publicPage: boolean;
  /** How the team's players are named wherever they appear publicly. */
  privacy: PrivacyLevel;
  /** Whether the team page lists its players. */
  roster: 'shown' | 'hidden';
  /** `noindex` asks search engines to leave the team's public pages out. */
  indexing: 'noindex' | 'index';
}

/**
 * A team nobody set anything for: no public page, no indexing, roster hidden, players in full
 * (as match pages showed them before these settings existed; a club chooses less).
 */
export const DEFAULT_PUBLICITY: TeamPublicity = { publicPage: false, privacy: 'full', roster: 'hidden', indexing: 'noindex' };

export const PRIVACY_LABELS: Record<PrivacyLevel, string> = {
  full: 'Full name (Anna Schmidt)',
  'first-initial': 'First name and initial (Anna S.)',
  initials: 'Initials (A. S.)',
  numbers: 'Shirt numbers only (#7)',
};

const initialOf = (word: string) => `${[...word][0] ?? ''}.`;
/** A hyphenated given name keeps both initials ("Anna-Lena" → "A.-L."). */
const initialsOfWord = (word: string) =>
  word
    .split('-')
    .filter((part) => part !== '')
    .map(initialOf)
    .join('-');

/** "7" or "#7"-like numbers read "#7"; no number reads "Player". */
const numberName = (number: string | null) => (number !== null && number.trim() !== '' ? `#${number.trim().replace(/^#/, '')}` : 'Player');

/**
 * A player's name as the privacy level shows it. The name is split on spaces (a comma form
 * "Schmidt, Anna" is turned first); the last word is the family name. A name the level cannot
 * shorten (one word) shows its initial, never more than the level allows; no name shows the number.
 */
export function shownName(name: string | null, number: string | null, level: PrivacyLevel): string {
  if (level === 'full') return name ?? numberName(number);
  if (level === 'numbers' || name === null) return numberName(number);
  const turned = name.includes(',') ? name.split(',').reverse().join(' ') : name;
  const words = turned.split(/\s+/).filter((word) => word !== '' && word !== '.');
  if (words.length === 0) return numberName(number);
  if (level === 'initials') return words.map(initialsOfWord).join(' ');
  const family = words.length > 1 ? words[words.length - 1]! : null;
  const given = words.length > 1 ? words.slice(0, -1).join(' ') : words[0]!;
  return family === null ? initialsOfWord(given) : `${given} ${initialsOfWord(family)}`;
}
