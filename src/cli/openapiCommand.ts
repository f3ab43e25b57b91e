import { buildApp } from '../runtime/app.js';
import { loadConfig } from '../runtime/config.js';
import { openEngine } from '../runtime/engine.js';
import type { CliCommand } from './command.js';

/** Builds the app on throwaway in-memory stores, only to ask it for its OpenAPI document. */
export async function openApiDocument(env: Record<string, string | undefined>): Promise<unknown> {
  const config = { ...loadConfig(env), eventStoreUrl: 'sqlite::memory:', readModelUrl: 'sqlite::memory:', runProjections: false, logLevel: 'silent' };
  const engine = await openEngine(config, { info: () => {}, error: () => {} });
  const app = await buildApp({ config, engine, writeTokenKey: Buffer.alloc(32) });
  try {
    await app.ready();
    return app.swagger();
  } finally {
    await app.close();
    await engine.close();
  }
}

export const openapiCommand: CliCommand = {
  name: 'openapi',
  summary: 'print the OpenAPI document of the HTTP API (docs/openapi.json is this output)',
  usage: 'matchlog openapi',
  async run(_args, io) {
    io.out(`${JSON.stringify(await openApiDocument({ ...io.env, PUBLIC_BASE_URL: io.env.PUBLIC_BASE_URL ?? 'http://localhost:3000' }), null, 2)}\n`);
    return 0;
  },
};
