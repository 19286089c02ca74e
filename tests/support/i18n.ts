/**
 * The UI string layer in tests: English by default for every mounted component (vitest setup
 * file), and a translator for the view functions that take one. Test-only.
 */
import { config } from '@vue/test-utils';
import { createUiI18n } from '../../extension/lib/i18n';

/** vue-i18n's `t` in `locale`, as a page would have it. */
export function translator(locale = 'en'): (key: string, params?: Record<string, string | number>, plural?: number) => string {
  const { t } = createUiI18n(locale).global;
  return (key, params, plural) => (plural !== undefined ? t(key, params ?? {}, plural) : params ? t(key, params) : t(key));
}

export const englishT = translator('en');

config.global.plugins = [...config.global.plugins.filter((p) => !('__i18n' in (p as object))), createUiI18n('en')];
