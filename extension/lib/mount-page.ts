/**
 * Starts an extension page: Pinia, the stored settings (plus `?port=` for tests), the live feed
 * over a real WebSocket in the scope the page needs, the light/dark theme, then mounts.
 * The one place where the real transport is wired into the stores; tests wire a fake instead.
 */
import { createApp, watch, type Component } from 'vue';
import { createPinia } from 'pinia';
import type { FeedScope } from '../../companion/protocol';
import { useConnectionStore } from '@/stores/connection';
import { useSettingsStore } from '@/stores/settings';
import { webSocketConnection } from './companion-connection';
import { portFromSearch } from './companion-url';
import { wakeBackground } from './wake';
import { followTheme } from './theme';
import { browserLanguages } from './languages';
import { activateUiI18n, applyLocaleToDocument, createUiI18n, resolveUiLocale } from './i18n';

export interface PageOptions {
  /** `full` (panel), `usage` (popup), or null for pages without live data (options). */
  feed: FeedScope | null;
}

export async function mountPage(root: Component, opts: PageOptions): Promise<void> {
  const pinia = createPinia();
  const app = createApp(root).use(pinia);
  followTheme();
  const settings = useSettingsStore(pinia);
  await settings.load({ portOverride: portFromSearch() });
  // One language for the UI and the doc sheets: the setting (`auto`: the browser's), applied at once
  // on every open page when it changes.
  const locale = () => resolveUiLocale(settings.docLanguage, browserLanguages());
  const i18n = createUiI18n(locale());
  app.use(i18n);
  // Code outside components (view helpers, error texts, figures) speaks the same language.
  activateUiI18n(i18n);
  applyLocaleToDocument(locale());
  watch(locale, (l) => {
    i18n.global.locale.value = l;
    applyLocaleToDocument(l);
  });
  if (opts.feed) useConnectionStore(pinia).start({ connect: webSocketConnection, scope: opts.feed });
  // A stopped MV3 service worker has no timers left: any open page brings the badge back to life.
  void wakeBackground();
  app.mount('#app');
}
