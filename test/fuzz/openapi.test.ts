import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { startTestApp } from '../helpers/testApp.js';

const config = fileURLToPath(new URL('./schemathesis.toml', import.meta.url));
const available = spawnSync('schemathesis', ['--version'], { encoding: 'utf8' }).status === 0;

if (!available) {
  t.comment('skipping the OpenAPI fuzz test: schemathesis is not installed (pip install schemathesis; .ci/run does)');
  t.pass('skipped: no schemathesis');
} else {
  t.test('schemathesis finds no request the API mishandles against its own OpenAPI document', async (t) => {
    const { app } = await startTestApp(t);
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn('schemathesis', ['--no-color', '--config-file', config, 'run', `${base}/openapi.json`, '--seed', '1'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.on('close', (exit) => resolve({ code: exit, output: text }));
    });
    const summary = output.slice(output.lastIndexOf('SUMMARY'));
    t.comment(summary);
    t.equal(code, 0, code === 0 ? 'no failures' : output);
    t.match(summary, /(\d+) generated, \1 passed/, 'every generated case passed');
  });
}
