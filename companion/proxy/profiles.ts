/**
 * @module Profiles: the upstream (and key) model requests go to, switchable without restarting
 * Codex. Stored in their own 0600 file, the one place a key is kept because the user put it
 * there. The built-in `default` profile routes by Codex's own credentials. Codex's credentials
 * reach a profile's host only with that profile's explicit opt-in.
 */
import fs from 'node:fs';
import { z } from 'zod';
import { maskSecret } from '../http/headers';
import { isLoopbackHost } from '../lib/loopback';
import { maskUrl } from '../lib/url-secrets';
import { paths, writePrivateFile } from '../store/layout';
import type { ProfileInput, ProfilePublic } from '../protocol/profile';

export const DEFAULT_PROFILE_ID = 'default';

const StoredProfileSchema = z.object({
  id: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  apiKey: z.string().nullable(),
  modelOverride: z.string().nullable(),
  forwardCodexCredentials: z.boolean(),
});
export type StoredProfile = z.infer<typeof StoredProfileSchema>;

const ProfilesFileSchema = z.object({ activeId: z.string(), profiles: z.array(StoredProfileSchema) });

/** Loopback hosts may use plain HTTP (a local model server); everything else must be HTTPS. */
export function profileUrlProblem(baseUrl: string): string | null {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    return `base URL ${JSON.stringify(baseUrl)} is not a URL`;
  }
  if (u.username || u.password) return 'base URL must not contain credentials; store the key in the profile instead';
  const loopback = isLoopbackHost(u.host);
  if (u.protocol === 'https:' || (u.protocol === 'http:' && loopback)) return null;
  return `base URL ${u.origin} must use HTTPS (plain HTTP is allowed only on loopback)`;
}

export class Profiles {
  private data: z.infer<typeof ProfilesFileSchema>;
  /** Why the profiles file could not be read, if it could not. */
  loadError: string | null = null;
  private listeners: ((p: ProfilePublic) => void)[] = [];

  constructor(private readonly home: string) {
    this.data = { activeId: DEFAULT_PROFILE_ID, profiles: [] };
    this.reload();
  }

  /** Re-reads the file (the CLI may have changed it while the companion runs). */
  reload(): void {
    const file = paths(this.home).profiles;
    if (!fs.existsSync(file)) return;
    try {
      this.data = ProfilesFileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
      this.loadError = null;
    } catch (err) {
      // Keep the active id we cannot resolve: requests then fail loudly rather than fall back.
      this.loadError = `cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`;
    }
  }

  private save(): void {
    writePrivateFile(paths(this.home).profiles, JSON.stringify(this.data, null, 2) + '\n');
  }

  onChange(fn: (p: ProfilePublic) => void): void {
    this.listeners.push(fn);
  }

  get activeId(): string {
    return this.data.activeId;
  }

  /** The active profile, or the reason it cannot be used. */
  resolve(id = this.data.activeId): { ok: true; profile: StoredProfile | null } | { ok: false; reason: string } {
    if (id === DEFAULT_PROFILE_ID) return { ok: true, profile: null };
    if (this.loadError) return { ok: false, reason: this.loadError };
    const p = this.data.profiles.find((x) => x.id === id);
    if (!p) return { ok: false, reason: `profile "${id}" does not exist (any more)` };
    const problem = profileUrlProblem(p.baseUrl);
    return problem ? { ok: false, reason: problem } : { ok: true, profile: p };
  }

  list(): ProfilePublic[] {
    return [this.builtin(), ...this.data.profiles.map((p) => this.toPublic(p))];
  }

  active(): ProfilePublic {
    return (
      this.list().find((p) => p.id === this.data.activeId) ?? {
        ...this.builtin(),
        id: this.data.activeId,
        name: `${this.data.activeId} (missing)`,
      }
    );
  }

  upsert(input: ProfileInput): ProfilePublic {
    if (input.id === DEFAULT_PROFILE_ID) throw new ProfileError('the default profile cannot be changed');
    const problem = profileUrlProblem(input.baseUrl);
    if (problem) throw new ProfileError(problem);
    const existing = this.data.profiles.find((p) => p.id === input.id);
    const next: StoredProfile = {
      id: input.id,
      name: input.name,
      baseUrl: input.baseUrl.replace(/\/+$/, ''),
      // Omitting the key keeps the stored one; null removes it.
      apiKey: input.apiKey === undefined ? (existing?.apiKey ?? null) : input.apiKey,
      modelOverride: input.modelOverride ?? null,
      forwardCodexCredentials: input.forwardCodexCredentials ?? false,
    };
    this.data.profiles = [...this.data.profiles.filter((p) => p.id !== input.id), next];
    this.save();
    if (this.data.activeId === next.id) this.emit();
    return this.toPublic(next);
  }

  remove(id: string): boolean {
    if (id === DEFAULT_PROFILE_ID) throw new ProfileError('the default profile cannot be removed');
    const before = this.data.profiles.length;
    this.data.profiles = this.data.profiles.filter((p) => p.id !== id);
    if (this.data.profiles.length === before) return false;
    if (this.data.activeId === id) this.data.activeId = DEFAULT_PROFILE_ID;
    this.save();
    this.emit();
    return true;
  }

  activate(id: string): ProfilePublic {
    if (id !== DEFAULT_PROFILE_ID && !this.data.profiles.some((p) => p.id === id)) throw new ProfileError(`no profile "${id}"`);
    this.data.activeId = id;
    this.save();
    this.emit();
    return this.active();
  }

  private emit(): void {
    const p = this.active();
    for (const l of this.listeners) l(p);
  }

  private builtin(): ProfilePublic {
    return {
      id: DEFAULT_PROFILE_ID,
      name: 'Codex credentials (default)',
      baseUrl: null,
      keyMasked: null,
      modelOverride: null,
      forwardCodexCredentials: true,
      builtin: true,
    };
  }

  private toPublic(p: StoredProfile): ProfilePublic {
    return {
      id: p.id,
      name: p.name,
      baseUrl: maskUrl(p.baseUrl),
      keyMasked: p.apiKey ? maskSecret(p.apiKey) : null,
      modelOverride: p.modelOverride,
      forwardCodexCredentials: p.forwardCodexCredentials,
      builtin: false,
    };
  }
}

export class ProfileError extends Error {
  override name = 'ProfileError';
}
