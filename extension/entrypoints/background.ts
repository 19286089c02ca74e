/**
 * Background (service worker in Chrome MV3, event page in Firefox), privileged extension context:
 * holds a usage-only live feed and keeps the toolbar badge current. Logic in lib/background.ts.
 */
import { startBackground } from '@/lib/background';

export default defineBackground(() => {
  void startBackground();
});
