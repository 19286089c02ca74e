/** @module The small settings file in the state directory (`settings.json`, 0600): read and updated whole. */
import fs from 'node:fs';
import { z } from 'zod';
import { paths, writePrivateFile } from '../store/layout';

export const SettingsSchema = z.looseObject({
  /** Recording off (forwarding goes on); survives restarts. */
  capturePaused: z.boolean().optional(),
  /** Context windows by model, for models whose window Codex's /models reply does not give. */
  contextWindows: z.record(z.string(), z.number().int().positive()).optional(),
});
export type Settings = z.infer<typeof SettingsSchema>;

/** The settings, or `{}` when there are none or they cannot be read. */
export function readSettings(home: string): Settings {
  try {
    const r = SettingsSchema.safeParse(JSON.parse(fs.readFileSync(paths(home).settings, 'utf8')));
    return r.success ? r.data : {};
  } catch {
    return {}; // no settings yet
  }
}

export function updateSettings(home: string, patch: Partial<Settings>): void {
  writePrivateFile(paths(home).settings, JSON.stringify({ ...readSettings(home), ...patch }, null, 2) + '\n');
}
