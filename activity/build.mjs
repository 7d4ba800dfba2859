// Builds the Activity's page into the Python package (bot/activity/static): one bundled script with the
// Embedded App SDK, one stylesheet, the page. Deterministic, so CI can rebuild and check the shipped files are
// fresh (`git diff --exit-code`). Run by `npm run build` (.ci/run and the Dockerfile run it after `npm ci`).

import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const out = fileURLToPath(new URL('../bot/activity/static/', import.meta.url));
await mkdir(out, { recursive: true });
await build({
  entryPoints: ['src/main.js'],
  bundle: true,
  format: 'esm',
  target: ['es2020', 'chrome100', 'safari15'],
  minify: true,
  legalComments: 'eof',
  outfile: `${out}app.js`,
  logLevel: 'warning',
});
await build({
  entryPoints: ['src/style.css'],
  bundle: true,
  minify: true,
  outfile: `${out}app.css`,
  logLevel: 'warning',
});
await copyFile('src/index.html', `${out}index.html`);
