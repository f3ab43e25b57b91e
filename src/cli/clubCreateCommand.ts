import { parseArgs } from 'node:util';
import { createClubCommands } from '../commands/clubCommands.js';
import { serviceConfig } from './stores.js';
import { DomainError } from '../domain/errors.js';
import { openEventStore } from '../eventstore/openEventStore.js';
import type { CliCommand } from './command.js';

const USAGE = `matchlog club-create --name <club name> --email <admin email> [password source] [--team <name>]... [--app-key] [--json]

Creates a club and its admin account in the event store named by the environment
(EVENT_STORE_URL, DATA_DIR), as the dashboard's sign-up does, and prints the clubId and teamIds.

password source (one of):
  --password-env <VAR>   read it from environment variable VAR (default: MATCHLOG_ADMIN_PASSWORD)
  --password-stdin       read it from standard input (first line)
  --password <password>  on the command line (visible to other users of the machine; avoid)
options:
  --team <name>          create a team (repeat for several)
  --app-key              also generate an app key and print it (shown once)
  --json                 print {clubId, teams, appKey?} as JSON`;

/** Creates a club and its admin without a browser: for operators, scripts and tests. */
export const clubCreateCommand: CliCommand = {
  name: 'club-create',
  summary: 'create a club and its admin account; prints the clubId and teamIds',
  usage: USAGE,
  async run(args, io) {
    let values;
    try {
      ({ values } = parseArgs({
        args,
        options: {
          name: { type: 'string' },
          email: { type: 'string' },
          password: { type: 'string' },
          'password-env': { type: 'string' },
          'password-stdin': { type: 'boolean', default: false },
          team: { type: 'string', multiple: true, default: [] },
          'app-key': { type: 'boolean', default: false },
          json: { type: 'boolean', default: false },
        },
        strict: true,
        allowPositionals: false,
      }));
    } catch (error) {
      io.err(`matchlog club-create: ${error instanceof Error ? error.message : String(error)}\nusage: ${USAGE}\n`);
      return 2;
    }
    if (values.name === undefined || values.email === undefined) {
      io.err('matchlog club-create: --name and --email are required\n');
      return 2;
    }
    const sources = [values.password !== undefined, values['password-env'] !== undefined, values['password-stdin']].filter(Boolean).length;
    if (sources > 1) {
      io.err('matchlog club-create: give the password one way only (--password-env, --password-stdin or --password)\n');
      return 2;
    }
    let password: string | undefined;
    if (values['password-stdin']) {
      if (io.readStdin === undefined) {
        io.err('matchlog club-create: standard input is not available here\n');
        return 2;
      }
      password = (await io.readStdin()).split(/\r?\n/)[0];
    } else if (values.password !== undefined) {
      io.err('matchlog club-create: warning: a password on the command line is visible to other users; prefer --password-env or --password-stdin\n');
      password = values.password;
    } else {
      const variable = values['password-env'] ?? 'MATCHLOG_ADMIN_PASSWORD';
      password = io.env[variable];
      if (password === undefined || password === '') {
        io.err(`matchlog club-create: no password: set ${variable}, or use --password-stdin\n`);
        return 2;
      }
    }

    const config = serviceConfig(io, {});
    if (config === null) return 2;
    const eventStore = await openEventStore(config.eventStoreUrl);
    try {
      const clubs = createClubCommands({ eventStore });
      const context = { requestId: `cli-${process.pid}`, clientAddressClass: 'cli' };
      const { clubId, teams } = await clubs.signUp({ clubName: values.name, email: values.email, password: password ?? '', teams: values.team }, context);
      const appKey = values['app-key'] ? await clubs.issueAppKey(clubId, 'created by matchlog club-create', context) : null;
      if (values.json) {
        io.out(`${JSON.stringify({ clubId, teams, ...(appKey ? { appKey: { key: appKey.key, keyId: appKey.keyId } } : {}) })}\n`);
      } else {
        io.out(`clubId  ${clubId}\n`);
        for (const team of teams) io.out(`teamId  ${team.teamId}  ${team.name}\n`);
        if (appKey) io.out(`appKey  ${appKey.key}  (key id ${appKey.keyId}; shown only now)\n`);
      }
      return 0;
    } catch (error) {
      if (error instanceof DomainError) {
        io.err(`matchlog club-create: ${error.message}\n`);
        return 1;
      }
      throw error;
    } finally {
      await eventStore.close();
    }
  },
};
