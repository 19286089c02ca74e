/**
 * The extension's settings in `storage.local` (shared by the panel, popup, options page and
 * background): the companion's port and pairing token, and the doc language.
 */
import { storage } from 'wxt/utils/storage';
import { DEFAULT_COMPANION_PORT, parsePort } from './companion-url';

export interface StoredSettings {
  port: number;
  /** Null until paired. */
  token: string | null;
  /** A language tag from concepts/languages.json, or `auto` (follow the browser). */
  docLanguage: string;
}

export const DEFAULT_SETTINGS: StoredSettings = { port: DEFAULT_COMPANION_PORT, token: null, docLanguage: 'auto' };

/** One item, so port and token always change together (a pairing never leaves a port with the old token). */
const item = storage.defineItem<StoredSettings>('local:settings', { fallback: DEFAULT_SETTINGS });

/** Whatever is stored, made whole: a damaged or older value falls back field by field. */
export function normaliseSettings(value: unknown): StoredSettings {
  const v = (value && typeof value === 'object' ? value : {}) as Partial<Record<keyof StoredSettings, unknown>>;
  return {
    port: parsePort(v.port) ?? DEFAULT_SETTINGS.port,
    token: typeof v.token === 'string' && v.token !== '' ? v.token : null,
    docLanguage: typeof v.docLanguage === 'string' && v.docLanguage !== '' ? v.docLanguage : 'auto',
  };
}

export async function readSettings(): Promise<StoredSettings> {
  return normaliseSettings(await item.getValue());
}

export async function writeSettings(patch: Partial<StoredSettings>): Promise<StoredSettings> {
  const next = normaliseSettings({ ...(await readSettings()), ...patch });
  await item.setValue(next);
  return next;
}

/** Calls `listener` when another page (the options page, usually) changes the settings. */
export function watchSettings(listener: (settings: StoredSettings) => void): () => void {
  return item.watch((value) => listener(normaliseSettings(value)));
}
