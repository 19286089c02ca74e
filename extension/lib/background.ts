/**
 * The background's work (service worker in Chrome MV3, event page in Firefox): a `usage`-scope
 * feed and the toolbar badge (offline, capture errors, rate limits at or above 80 %, a response
 * streaming). The badge is only ever what the open feed says: a worker that starts again (the
 * browser stopped it, with the badge still set) shows nothing until its snapshot tells it. The
 * companion's heartbeat every 20 s keeps a worker with an open socket alive. A worker without one
 * (the companion is down) is stopped by the browser after 30 s idle and keeps no timer, so an alarm
 * every 30 s wakes it to try again: the badge then says "off" until the companion answers, and
 * clears within 30 s of its return. It also starts again on browser start-up, on a settings
 * change, or when a page sends the wake message.
 */
import { watch } from 'vue';
import { createPinia, setActivePinia } from 'pinia';
import { browser } from 'wxt/browser';
import { useCaptureStore } from '@/stores/capture';
import { useConnectionStore } from '@/stores/connection';
import { useSettingsStore } from '@/stores/settings';
import { useUsageStore } from '@/stores/usage';
import { badgeFor, type Badge } from './badge';
import { browserLanguages } from './languages';
import { activateUiI18n, createUiI18n, resolveUiLocale } from './i18n';
import { webSocketConnection, type ConnectionFactory } from './companion-connection';
import { WAKE_MESSAGE } from './wake';

/** The alarm that wakes a stopped worker to retry; 30 s is the shortest period Chrome allows. */
export const RETRY_ALARM = 'codex-devtools:retry';

async function showBadge(b: Badge): Promise<void> {
  const action = browser.action ?? (browser as unknown as { browserAction?: typeof browser.action }).browserAction;
  if (!action) return;
  try {
    await action.setBadgeText({ text: b.text });
    await action.setBadgeBackgroundColor({ color: b.color });
    await action.setTitle({ title: b.title });
  } catch (err) {
    console.warn(`codex-devtools: could not set the badge (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** `connect` is the real WebSocket; tests pass an in-memory one. */
export async function startBackground(connect: ConnectionFactory = webSocketConnection): Promise<void> {
  const pinia = createPinia();
  setActivePinia(pinia);
  const connection = useConnectionStore();
  const capture = useCaptureStore();
  const usage = useUsageStore();
  // Listeners first: registered synchronously at start-up they can wake a stopped worker.
  browser.runtime.onMessage.addListener((message: unknown) => {
    if (message === WAKE_MESSAGE && connection.status !== 'connected') connection.retryNow();
    return undefined;
  });
  browser.runtime.onStartup?.addListener(() => connection.retryNow());
  browser.alarms?.onAlarm.addListener((alarm) => {
    if (alarm.name === RETRY_ALARM && connection.status !== 'connected') connection.retryNow();
  });
  await browser.alarms?.create(RETRY_ALARM, { periodInMinutes: 0.5 });
  const settings = useSettingsStore();
  await settings.load();
  // The badge's tooltip speaks the UI's language, and follows a change of the setting.
  const locale = () => resolveUiLocale(settings.docLanguage, browserLanguages());
  const i18n = createUiI18n(locale());
  activateUiI18n(i18n);
  watch(locale, (l) => (i18n.global.locale.value = l));
  connection.start({ connect, scope: 'usage' });
  watch(
    () =>
      badgeFor({
        status: connection.status,
        offline: connection.offlineSince !== null,
        capture: capture.state,
        rateLimits: usage.rateLimits,
        // Only a connected feed's count shows (badgeFor says "off" otherwise): a closed feed cannot say when a stream ends.
        streaming: capture.streaming,
      }),
    (b) => void showBadge(b),
    { immediate: true },
  );
}
