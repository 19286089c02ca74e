/**
 * Starts an extension page: Pinia, the stored settings (plus `?port=` for tests), the live feed
 * over a real WebSocket in the scope the page needs, the light/dark theme, then mounts.
 * The one place where the real transport is wired into the stores; tests wire a fake instead.
 */
import { createApp, type Component } from 'vue';
import { createPinia } from 'pinia';
import type { FeedScope } from '../../companion/protocol';
import { useConnectionStore } from '@/stores/connection';
import { useSettingsStore } from '@/stores/settings';
import { webSocketConnection } from './companion-connection';
import { portFromSearch } from './companion-url';
import { wakeBackground } from './wake';
import { followTheme } from './theme';

export interface PageOptions {
  /** `full` (panel), `usage` (popup), or null for pages without live data (options). */
  feed: FeedScope | null;
}

export async function mountPage(root: Component, opts: PageOptions): Promise<void> {
  const pinia = createPinia();
  const app = createApp(root).use(pinia);
  followTheme();
  await useSettingsStore(pinia).load({ portOverride: portFromSearch() });
  if (opts.feed) useConnectionStore(pinia).start({ connect: webSocketConnection, scope: opts.feed });
  // A stopped MV3 service worker has no timers left: any open page brings the badge back to life.
  void wakeBackground();
  app.mount('#app');
}
