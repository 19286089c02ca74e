#!/usr/bin/env node
/** @module The `codex-devtools` command. */
import { startCompanion, DEFAULT_PORT } from './server';
import { resolveHome } from './store/layout';

const args = process.argv.slice(2);
const portFlag = args.indexOf('--port');
const port = portFlag >= 0 ? Number(args[portFlag + 1]) : DEFAULT_PORT;
const upstreamFlag = args.indexOf('--upstream');
const companion = await startCompanion({
  home: resolveHome(null),
  port,
  apiUpstream: upstreamFlag >= 0 ? args[upstreamFlag + 1] : undefined,
});
process.stdout.write(`codex-devtools listening on ${companion.url}\n`);
const stop = () => void companion.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
