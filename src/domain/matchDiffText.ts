import { createHash, type Hash } from 'node:crypto';
import { arrayElements, endsArrayElement, visitMembers } from './jsonSelect.js';
import { FINGERPRINT_CHARS } from './jsonFingerprint.js';
import { type ActionsPart, actionEntry, actionsPart, basisWith, type DiffBasis, diffBasis, NO_ACTIONS_TEXT } from './matchDiff.js';
import { type MatchSummary, summarizeMatch } from './matchPayload.js';

/** A payload parsed already (the request's body) and its summary, as DecodedPayloads holds it. */
interface Parsed {
  body: unknown;
  summary(): MatchSummary;
}

/** An `actions` member's part of a basis, and where its array's text ends. */
interface ActionsOfText {
  part: ActionsPart;
  end: number;
}

const OPEN_ARRAY = 91;

/** The actions' part of a payload without an actions list, as diffBasis makes it: the text of `[]` up to its (no) last action. */
const NO_ACTIONS: ActionsPart = actionsPart('', { chars: 1, digest: createHash('sha256').update('[').digest('base64url') });

/**
 * diffBasis of the payload that `text` holds, from the text, so the same diffs for every input:
 * actions and fields exactly as there, and `actionsText` the digest of this text's actions
 * (equal texts prove equal actions whichever text the previous basis digested). The actions the
 * previous version's basis covers with the same text keep their fingerprints unparsed and only
 * those after them are parsed, one by one; the rest of the payload is parsed without its actions.
 * A live match's next version parses its new rallies and a few KB of teams, sets and players, not
 * its whole play-by-play. A payload `parsed` already (the write path) is read as before, from the
 * object: a scan of its text would cost a wide payload more than the parse it spares.
 */
export function diffBasisOfText(text: string, previous: DiffBasis | null, parsed?: Parsed): DiffBasis {
  if (parsed !== undefined) return diffBasis(parsed.body, parsed.summary(), previous);
  // JSON.parse keeps the last member of a name: so does this. Each list is left out of the light text below.
  const actions: { last: ActionsOfText | null; lists: [start: number, end: number][] } = { last: null, lists: [] };
  const isObject = visitMembers(text, 'actions', (start) => {
    actions.last = text.charCodeAt(start) === OPEN_ARRAY ? actionsOfText(text, start, previous) : null;
    if (actions.last !== null) actions.lists.push([start, actions.last.end]);
    return actions.last?.end ?? null;
  });
  // Not an object: no actions nor fields, only what summarizeMatch makes of it.
  if (!isObject) return diffBasis(JSON.parse(text));
  const part = actions.last?.part ?? NO_ACTIONS;
  // The payload with `[]` for its actions: the same fields in the same order, and the same summary unless it read the actions.
  let light = '';
  let at = 0;
  for (const [start, end] of actions.lists) {
    light += `${text.slice(at, start)}[]`;
    at = end;
  }
  const body = JSON.parse(at === 0 ? text : light + text.slice(at));
  const summary = summarizeMatch(body);
  return basisWith(body, readsActions(summary) ? summarizeMatch(JSON.parse(text)) : summary, part);
}

/**
 * Whether a summary made without the actions may differ in teams, lines or players from the one
 * with them: summarizeMatch reads the actions only for a score when the teams carry none, and for
 * lines when there are no sets or periods.
 */
const readsActions = (summary: MatchSummary) => (summary.home.score === null && summary.away.score === null) || summary.lines.length === 0;

/**
 * The basis's actions of the array whose `[` is at `at`. When the text starts with the one the
 * previous basis digested, ending there with one of its actions (the same bytes are the same
 * actions, at the same places), those keep their entries and only the ones after are parsed.
 */
function actionsOfText(text: string, at: number, previous: DiffBasis | null): ActionsOfText {
  const prior = previous?.actionsText ?? NO_ACTIONS_TEXT;
  const kept = previous === null ? 0 : previous.actions.length / (2 * FINGERPRINT_CHARS);
  const from = at + prior.chars;
  if (previous !== null && kept > 0 && prior.chars > 1 && from < text.length && endsArrayElement(text, from)) {
    const head = text.slice(at, from);
    const hash = createHash('sha256');
    // A lone surrogate encodes as U+FFFD in UTF-8: only a well-formed text's digest tells it apart.
    if (head.isWellFormed() && hash.update(head).copy().digest('base64url') === prior.digest) {
      const { bounds, end } = arrayElements(text, at, from);
      let entries = previous.actions;
      for (let i = 0; i < bounds.length; i += 2) entries += actionEntry(JSON.parse(text.slice(bounds[i]!, bounds[i + 1]!)), kept + i / 2);
      const last = bounds.at(-1) ?? from;
      return { part: actionsPart(entries, digested(hash, text.slice(from, last), last - at), previous), end };
    }
  }
  const { bounds, end } = arrayElements(text, at);
  const list: unknown[] = JSON.parse(text.slice(at, end));
  const last = bounds.at(-1) ?? at + 1;
  return { part: actionsPart(list.map(actionEntry).join(''), digested(createHash('sha256'), text.slice(at, last), last - at)), end };
}

/** The actions' text digested: `hash` holds the part before `more`, which ends `chars` into the text. */
function digested(hash: Hash, more: string, chars: number): DiffBasis['actionsText'] {
  if (!more.isWellFormed()) return NO_ACTIONS_TEXT;
  return { chars, digest: hash.update(more).digest('base64url') };
}
