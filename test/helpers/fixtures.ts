import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { adversarialCorpus } from '../fixtures/adversarial.mjs';
import { liveMatchUploads } from '../fixtures/liveMatch.mjs';

const generator = fileURLToPath(new URL('../fixtures/generate.mjs', import.meta.url));
const cache = new Map<string, string>();

export interface FixtureOptions {
  sport?: 'volleyball' | 'basketball';
  seed?: number;
  actions?: number;
  count?: number;
  club?: string;
  team?: string;
  id?: string;
}

/**
 * JSON text of realistic match payloads from the shared deterministic generator
 * (test/fixtures/generate.mjs, copied from shared/fixtures): same options, same bytes.
 */
export function fixtureText(options: FixtureOptions = {}): string {
  const args = Object.entries(options).flatMap(([key, value]) => [`--${key}`, String(value)]);
  const key = args.join(' ');
  let text = cache.get(key);
  if (text === undefined) {
    text = execFileSync(process.execPath, [generator, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
    cache.set(key, text);
  }
  return text;
}

export function fixture(options: FixtureOptions = {}): Record<string, unknown> {
  return JSON.parse(fixtureText(options)) as Record<string, unknown>;
}

/**
 * Payload texts of every sport and shape the tests know: generated volleyball and basketball,
 * a live match's first uploads, the adversarial corpus and the real feeds in test/fixtures/*.json.
 */
export function payloadTextsOfEveryShape(): string[] {
  return [
    fixtureText({ seed: 1 }),
    fixtureText({ sport: 'basketball', seed: 2 }),
    ...liveMatchUploads().slice(0, 5),
    ...adversarialCorpus().map((entry) => entry.text),
    ...readdirSync(new URL('../fixtures/', import.meta.url))
      .filter((name) => name.endsWith('.json'))
      .map((name) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')),
  ];
}
