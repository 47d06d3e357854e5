// npm start: serve the production build, building it first when there is none (rerun
// npm run build after changing the code). The steps themselves are scripts/start.ts, bundled by
// the build into .next/standalone/start.mjs, which runs here, in this process: migrations, then
// the server. In production run that file directly (node .next/standalone/start.mjs), as the
// Docker image does, so that no npm process stands between the server and its signals.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { START_BUNDLE, STANDALONE_SERVER } from './paths.mjs';

if (!existsSync(STANDALONE_SERVER) || !existsSync(START_BUNDLE)) {
  process.stdout.write('[start] no production build yet: running npm run build\n');
  const { build } = await import('./build.mjs');
  const status = build();
  if (status !== 0) process.exit(status);
}
await import(pathToFileURL(path.resolve(START_BUNDLE)).href);
