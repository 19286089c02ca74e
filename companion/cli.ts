#!/usr/bin/env node
/** @module The `codex-devtools` command: dispatches to one module per subcommand. */
import { UsageError } from './cli/errors';
import { COMPANION_VERSION } from './version';

const HELP = `codex-devtools ${COMPANION_VERSION}: see what the Codex CLI sends to its model, live in DevTools.

Usage: codex-devtools [command] [options]

Commands:
  start (default)     run the companion on 127.0.0.1:8642
  run -- codex …      run Codex through a companion without touching its config
  setup [--remove]    route plain \`codex\` through the companion (config.toml block), or undo
  doctor              check Codex, its config, the companion and traffic
  token [--rotate]    print the pairing token and pairing code
  profile …           list|add|use|remove upstream profiles (hot switch)
  pause | resume      stop or restart recording (forwarding never stops)
  clear | prune       delete captured history, or the oldest sessions past the size cap
  import              import Codex's own session files (rollouts) or a JSONL export
  export --format F   history as HAR, JSONL or HTML (--session, --since, -o FILE)
  usage               token usage and cost as a table (--by day|session|model|thread) or --json
  demo                a companion with real captured Codex traffic loaded, to try the panel

Run \`codex-devtools <command> --help\` for its options. --version prints the version.`;

// Loaded on demand: `token` or `setup` should not pay for the server, tokenizer and HTTP client.
const commands: Record<string, (args: string[]) => Promise<number>> = {
  start: async (a) => (await import('./cli/start')).start(a),
  run: async (a) => (await import('./cli/run')).run(a),
  setup: async (a) => (await import('./cli/setup')).setupCommand(a),
  doctor: async (a) => (await import('./cli/doctor')).doctorCommand(a),
  token: async (a) => (await import('./cli/token')).tokenCommand(a),
  profile: async (a) => (await import('./cli/profile')).profileCommand(a),
  pause: async (a) => (await import('./cli/manage')).manageCommand('pause', a),
  resume: async (a) => (await import('./cli/manage')).manageCommand('resume', a),
  clear: async (a) => (await import('./cli/manage')).manageCommand('clear', a),
  prune: async (a) => (await import('./cli/manage')).manageCommand('prune', a),
  import: async (a) => (await import('./cli/import')).importCommand(a),
  usage: async (a) => (await import('./cli/usage')).usageCommand(a),
  export: async (a) => (await import('./cli/export')).exportCommand(a),
  demo: async (a) => (await import('./cli/demo')).demoCommand(a),
};

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-v') {
    console.log(COMPANION_VERSION);
    return 0;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    console.log(HELP);
    return 0;
  }
  if (first === undefined || first.startsWith('-')) return commands.start(argv);
  const command = commands[first];
  if (!command) throw new UsageError(`unknown command ${JSON.stringify(first)}; see codex-devtools --help`);
  return command(rest);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`codex-devtools: ${err.message}\n`);
      process.exit(err.exitCode);
    }
    process.stderr.write(`codex-devtools: unexpected error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
