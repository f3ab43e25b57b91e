import t from 'tap';
import { AppendOutcomeUnknownError } from '../../src/eventstore/eventStore.js';
import { json, logLines, startTestApp } from '../helpers/testApp.js';

t.test('N8: an append whose outcome is unknown is answered 503 "outcome unknown" with Retry-After, never a plain 500', async (t) => {
  const started = await startTestApp(t);
  const { app, engine } = started;
  engine.eventStore.appendToStream = async (streamId) => {
    throw new AppendOutcomeUnknownError(streamId, 3, new Error('cancelled'));
  };
  const res = await app.inject({ method: 'PUT', url: '/api/matches/unsure', headers: json, payload: JSON.stringify({ homeTeam: { name: 'Herons' } }) });
  t.equal(res.statusCode, 503);
  t.equal(res.headers['retry-after'], '1');
  t.match(res.json(), { statusCode: 503, message: /^outcome unknown: .*may or may not be stored.*send the same request again/ });
  t.ok(
    logLines<{ msg: string }>(started.logs).some((line) => line.msg.includes('outcome is unknown')),
    'the operator is told in the log',
  );
});
