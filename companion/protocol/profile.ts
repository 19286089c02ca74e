/** @module Profiles as clients see them: upstream and key choice, the key only ever masked. */
import { z } from 'zod';

export const ProfilePublicSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Null for the built-in default profile, which routes by Codex's own credentials. */
  baseUrl: z.string().nullable(),
  /** `[redacted …abcd]` when a key is stored, else null. */
  keyMasked: z.string().nullable(),
  modelOverride: z.string().nullable(),
  /** Whether Codex's own credentials may be sent on to this profile's host when it has no key. */
  forwardCodexCredentials: z.boolean(),
  builtin: z.boolean(),
});
export type ProfilePublic = z.infer<typeof ProfilePublicSchema>;

export const ProfilesResponseSchema = z.object({
  activeId: z.string(),
  profiles: z.array(ProfilePublicSchema),
});
export type ProfilesResponse = z.infer<typeof ProfilesResponseSchema>;

const baseUrl = z.url({ protocol: /^https?$/ });

/** Body of `POST /api/profiles` (create or replace by id). */
export const ProfileInputSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'id: lower-case letters, digits, - and _ (max 40)'),
  name: z.string().min(1).max(80),
  baseUrl,
  apiKey: z.string().min(1).max(500).nullable().optional(),
  modelOverride: z.string().min(1).max(120).nullable().optional(),
  forwardCodexCredentials: z.boolean().optional(),
});
export type ProfileInput = z.infer<typeof ProfileInputSchema>;

export const ActivateProfileSchema = z.object({ id: z.string() });
