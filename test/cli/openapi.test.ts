import { readFileSync } from 'node:fs';
import t from 'tap';
import { openApiDocument } from '../../src/cli/openapiCommand.js';

t.test('docs/openapi.json is the document the app serves (regenerate: npx matchlog openapi > docs/openapi.json)', async (t) => {
  const committed = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
  t.same(committed, await openApiDocument({ PUBLIC_BASE_URL: 'http://localhost:3000' }));
});
