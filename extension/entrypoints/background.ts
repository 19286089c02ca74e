/**
 * Background (service worker in Chrome MV3, event page in Firefox). Privileged extension context.
 * It keeps nothing of its own yet; the panel and popup talk to the companion directly.
 */
export default defineBackground(() => {
  // Nothing to do at start-up: connections are opened by the pages that show data.
});
