/** @module `codex-devtools profile list|add|use|remove`: hot-switchable upstreams and keys. */
import { describeIssues } from '../protocol/issues';
import { ProfileInputSchema, type ProfilePublic, type ProfilesResponse } from '../protocol/profile';
import { ProfileError, Profiles } from '../proxy/profiles';
import { callApi } from './client';
import { probe } from '../lib/probe';
import { UsageError } from './errors';
import { COMMON, companionPort, home, parse } from './options';

export const PROFILE_HELP = `Usage:
  codex-devtools profile list
  codex-devtools profile add <id> --url <base-url> [--name <name>] [--key-env <VAR> | --key-stdin]
                             [--model <model>] [--forward-codex-credentials]
  codex-devtools profile use <id>        (\`default\` routes by Codex's own credentials)
  codex-devtools profile remove <id>

A profile sends model requests to another endpoint, with its own key, from the next turn on,
without restarting Codex. Use it only with endpoints and keys you are entitled to: with a profile
active, prompts, file fragments and tool context pass through the service it names. The key is
stored only in the state directory's profiles.json (mode 0600) and only ever shown masked.
Codex's own credentials are sent to the profile's host only with --forward-codex-credentials.`;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

function table(r: ProfilesResponse): string {
  return r.profiles
    .map((p: ProfilePublic) => {
      const mark = p.id === r.activeId ? '*' : ' ';
      const target = p.baseUrl ?? 'by Codex credentials (API key → API, ChatGPT login → ChatGPT backend)';
      const extra = [
        p.keyMasked ? `key ${p.keyMasked}` : null,
        p.modelOverride ? `model → ${p.modelOverride}` : null,
        !p.builtin && p.forwardCodexCredentials ? "forwards Codex's credentials" : null,
      ]
        .filter(Boolean)
        .join(', ');
      return `${mark} ${p.id.padEnd(16)} ${p.name} — ${target}${extra ? ` (${extra})` : ''}`;
    })
    .join('\n');
}

export async function profileCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(
    'profile',
    args,
    {
      ...COMMON,
      url: { type: 'string' },
      name: { type: 'string' },
      'key-env': { type: 'string' },
      'key-stdin': { type: 'boolean' },
      model: { type: 'string' },
      'forward-codex-credentials': { type: 'boolean' },
    },
    true,
  );
  const [action, id] = positionals;
  if (values.help || !action) {
    console.log(PROFILE_HELP);
    return values.help ? 0 : 2;
  }
  const h = home(values.home);
  const p = companionPort(values, h);
  const live = (await probe(p)).kind === 'companion';
  const local = live ? null : new Profiles(h);
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await callApi(p, h, method, path, body);
    if (r.status >= 400)
      throw new UsageError(`profile ${action}: ${(r.json as { message?: string } | null)?.message ?? `HTTP ${r.status}`}`, 1);
    return r.json;
  };
  try {
    switch (action) {
      case 'list': {
        const r = local ? { activeId: local.activeId, profiles: local.list() } : ((await api('GET', '/profiles')) as ProfilesResponse);
        console.log(table(r));
        return 0;
      }
      case 'add': {
        if (!id) throw new UsageError('profile add: give an id, e.g. `codex-devtools profile add work --url https://…`');
        let apiKey: string | undefined;
        if (typeof values['key-env'] === 'string') {
          apiKey = process.env[values['key-env']];
          if (!apiKey) throw new UsageError(`profile add: the environment variable ${values['key-env']} is empty`);
        } else if (values['key-stdin']) apiKey = await readStdin();
        const parsed = ProfileInputSchema.safeParse({
          id,
          name: values.name ?? id,
          baseUrl: values.url,
          ...(apiKey !== undefined ? { apiKey } : {}),
          modelOverride: values.model ?? null,
          forwardCodexCredentials: values['forward-codex-credentials'] === true,
        });
        if (!parsed.success) throw new UsageError(`profile add: ${describeIssues(parsed.error, '')}`);
        const saved = local ? local.upsert(parsed.data) : ((await api('POST', '/profiles', parsed.data)) as ProfilePublic);
        console.log(
          `Saved profile ${saved.id} → ${saved.baseUrl}${saved.keyMasked ? ` (key ${saved.keyMasked})` : ''}. Switch with \`codex-devtools profile use ${saved.id}\`.`,
        );
        return 0;
      }
      case 'use': {
        if (!id) throw new UsageError('profile use: give an id (or `default`)');
        const active = local ? local.activate(id) : ((await api('POST', '/profiles/active', { id })) as ProfilePublic);
        console.log(`Active profile: ${active.id} (${active.baseUrl ?? "Codex's own credentials"}); applies from the next turn.`);
        return 0;
      }
      case 'remove': {
        if (!id) throw new UsageError('profile remove: give an id');
        const removed = local
          ? local.remove(id)
          : ((await api('DELETE', `/profiles/${encodeURIComponent(id)}`)) as { removed: boolean }).removed;
        if (!removed) throw new UsageError(`profile remove: no profile ${id}`, 1);
        console.log(`Removed profile ${id}.`);
        return 0;
      }
      default:
        throw new UsageError(`profile: unknown action ${JSON.stringify(action)} (list, add, use, remove)`);
    }
  } catch (err) {
    if (err instanceof ProfileError) throw new UsageError(`profile ${action}: ${err.message}`, 1);
    throw err;
  }
}
