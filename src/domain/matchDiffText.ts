import { createHash, type Hash } from 'node:crypto';
import { OPEN_ARRAY } from './jsonScan.js';
import { arrayElements, endsArrayElement, visitMembers } from './jsonSelect.js';
import { FINGERPRINT_CHARS } from './jsonFingerprint.js';
import { type ActionsPart, actionEntry, actionsPart, basisWith, type DiffBasis, diffBasis, NO_ACTIONS_TEXT } from './matchDiff.js';
import type { DecodedPayload } from './decodedPayloads.js';
import { type MatchSummary, summarizeMatch } from './matchPayload.js';
import { isRecord } from '../platform/isRecord.js';

/** An `actions` member's part of a basis, and where its array's text ends. */
interface ActionsOfText {
  part: ActionsPart;
  end: number;
}

/** The actions' part of a payload without an actions list, as diffBasis makes it: the text of `[]` up to its (no) last action. */
const NO_ACTIONS: ActionsPart = actionsPart('', { chars: 1, digest: createHash('sha256').update('[').digest('base64url') });

/**
 * diffBasis of the payload that `text` holds, from the text, so the same diffs for every input:
 * actions and fields exactly as there, and `actionsText` the digest of this text's actions
 * (equal texts prove equal actions whichever text the previous basis digested). The actions the
 * previous version's basis covers with the same text keep their fingerprints unparsed and only
 * those after them are parsed, one by one; the rest of the payload is parsed without its actions.
 * A live match's next version parses its new rallies and a few KB of teams, sets and players, not
 * its whole play-by-play. `parsed`, the payload as the request that wrote it parsed it, spares
 * parsing the rest again: its fields and summary are those of the text without its actions
 * (the same members in the same order), and its summary is the whole payload's, as made here when
 * it reads the actions (a wide payload's parse was ~140 ms).
 */
export function diffBasisOfText(text: string, previous: DiffBasis | null, digested?: DigestedTexts, parsed?: DecodedPayload): DiffBasis {
  // JSON.parse keeps the last member of a name: so does this. Each list is left out of the light text below.
  const actions: { last: ActionsOfText | null; lists: [start: number, end: number][] } = { last: null, lists: [] };
  // The parse's list is the last member's, the only one kept: an earlier one's entries made from it are let go.
  const parsedBody = parsed?.body;
  const parsedList = isRecord(parsedBody) && Array.isArray(parsedBody.actions) ? parsedBody.actions : undefined;
  const isObject = visitMembers(text, 'actions', (start) => {
    actions.last = text.charCodeAt(start) === OPEN_ARRAY ? actionsOfText(text, start, previous, digested, parsedList) : null;
    if (actions.last !== null) actions.lists.push([start, actions.last.end]);
    return actions.last?.end ?? null;
  });
  // Not an object: no actions nor fields, only what summarizeMatch makes of it.
  if (!isObject) return diffBasis(parsed?.body ?? JSON.parse(text));
  const part = actions.last?.part ?? NO_ACTIONS;
  if (parsed !== undefined) return basisWith(parsed.body, parsed.summary(), part);
  // The payload with `[]` for its actions: the same fields in the same order, and the same summary unless it read the actions.
  let light = '';
  let at = 0;
  for (const [start, end] of actions.lists) {
    light += `${text.slice(at, start)}[]`;
    at = end;
  }
  const body = JSON.parse(at === 0 ? text : light + text.slice(at));
  const summary = summarizeMatch(body);
  // Without an actions list the light text is the text: its summary is the whole payload's (a wide payload's second parse was ~140 ms).
  return basisWith(body, at !== 0 && readsActions(summary) ? summarizeMatch(JSON.parse(text)) : summary, part);
}

/**
 * Whether a summary made without the actions may differ in teams, lines or players from the one
 * with them: summarizeMatch reads the actions only for a score when the teams carry none, and for
 * lines when there are no sets or periods.
 */
const readsActions = (summary: MatchSummary) => (summary.home.score === null && summary.away.score === null) || summary.lines.length === 0;

/** An actions' text a basis digested, and the SHA-256 state after it. */
interface Digested {
  text: string;
  hash: Hash;
  /** Characters it keeps alive: the payload's text it is a slice of. */
  size: number;
}

/**
 * Actions' texts digested lately, by their digest, kept in memory up to `maxChars` characters of
 * the payloads they are slices of (the oldest let go first). A version whose previous basis's
 * digest is here compares its text with the one kept (a native comparison) instead of digesting
 * it again, and digests only what follows from the state kept: a rebuild or catch-up over a live
 * match digests each rally's text once, not the whole play-by-play per version. A match's older
 * versions are let go first as long as the matches replayed together fit. The same result
 * with or without it (equal texts of one digest), so one may serve every match of a process.
 */
export function digestedTexts(maxChars: number) {
  const kept = new Map<string, Digested>();
  let chars = 0;
  return {
    /** The text of `digest`, now the last to be let go (matches may share one: the bench's live matches all do). */
    get(digest: string): Digested | undefined {
      const entry = kept.get(digest);
      if (entry !== undefined) {
        kept.delete(digest);
        kept.set(digest, entry);
      }
      return entry;
    },
    /** Lets go of every text (a match was erased: none of its texts may stay in memory). */
    clear() {
      kept.clear();
      chars = 0;
    },
    keep(digest: string, entry: Digested) {
      if (entry.size > maxChars) return;
      const old = kept.get(digest);
      if (old !== undefined) chars -= old.size;
      kept.delete(digest);
      kept.set(digest, entry);
      chars += entry.size;
      for (const [oldest, { size }] of kept) {
        if (chars <= maxChars) break;
        kept.delete(oldest);
        chars -= size;
      }
    },
  };
}

export type DigestedTexts = ReturnType<typeof digestedTexts>;

/**
 * The basis's actions of the array whose `[` is at `at`. When the text starts with the one the
 * previous basis digested, ending there with one of its actions (the same bytes are the same
 * actions, at the same places), those keep their entries and only the ones after are parsed.
 * Told by the text `digested` keeps of that digest when it has it, else by digesting it.
 */
function actionsOfText(text: string, at: number, previous: DiffBasis | null, digested?: DigestedTexts, parsedList?: unknown[]): ActionsOfText {
  const prior = previous?.actionsText ?? NO_ACTIONS_TEXT;
  const kept = previous === null ? 0 : previous.actions.length / (2 * FINGERPRINT_CHARS);
  const from = at + prior.chars;
  if (previous !== null && kept > 0 && prior.chars > 1 && from < text.length && endsArrayElement(text, from)) {
    const head = text.slice(at, from);
    const hash = sameText(head, prior.digest, digested);
    if (hash !== null) {
      const { bounds, end } = arrayElements(text, at, from);
      let entries = previous.actions;
      for (let i = 0; i < bounds.length; i += 2) entries += actionEntry(JSON.parse(text.slice(bounds[i]!, bounds[i + 1]!)), kept + i / 2);
      const last = bounds.at(-1) ?? from;
      return { part: actionsPart(entries, digest(hash, text, at, from, last, digested), previous), end };
    }
  }
  const { bounds, end } = arrayElements(text, at);
  // An action's fingerprint is of its value: the request's parse of it is the same value as the text's.
  const list: unknown[] = parsedList ?? JSON.parse(text.slice(at, end));
  const last = bounds.at(-1) ?? at + 1;
  return { part: actionsPart(list.map(actionEntry).join(''), digest(createHash('sha256'), text, at, at, last, digested)), end };
}

/** The SHA-256 state after `head` when its digest is `digest` (the text kept of it equal, or digested again), else null. */
function sameText(head: string, digest: string, digested?: DigestedTexts): Hash | null {
  const kept = digested?.get(digest);
  if (kept !== undefined && kept.text === head) return kept.hash.copy();
  const hash = createHash('sha256');
  // A lone surrogate encodes as U+FFFD in UTF-8: only a well-formed text's digest tells it apart.
  return head.isWellFormed() && hash.update(head).copy().digest('base64url') === digest ? hash : null;
}

/**
 * The actions' text, text[at, last), digested: `hash` holds text[at, from). Kept in `digested`
 * with the state after it, for the next version.
 */
function digest(hash: Hash, text: string, at: number, from: number, last: number, digested?: DigestedTexts): DiffBasis['actionsText'] {
  const more = text.slice(from, last);
  if (!more.isWellFormed()) return NO_ACTIONS_TEXT;
  hash.update(more);
  const state = digested === undefined ? null : hash.copy();
  const made = { chars: last - at, digest: hash.digest('base64url') };
  if (state !== null) digested!.keep(made.digest, { text: text.slice(at, last), hash: state, size: text.length });
  return made;
}
