import { defineConfig } from 'wxt';

/**
 * Fixed public key so an unpacked development build gets the same extension id on every install
 * (its one-click pairing link and stored settings survive reinstalls). Id: dceflbcgefibjiafpacongiijjkjedae.
 * The Chrome Web Store rejects a `key` and assigns its own id, so the store build (`--mode store`,
 * scripts/build-extensions.mjs) has none; pairing by code works with any id.
 */
const CHROME_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtS4ew0g0gmbdbWFwMb7q9FmJqpUsSJvYtuVG8ThT5kuUWL40ZMOmItEOJPZAQecHC4vBhK97qqaUtJAGLIvRUagXza5JtI5PrpC8+/d6hvIVEoMXDAarmcTiUKJj63yGFkiPzPCe/J5/OOv/O6uoIXdEIVBzIJEu/uE6aEx6IubQ+7mkgkOIfmMdVlfek5E3euIFOwbPCIAq5drc0hWsXOE5nJ6OfrfriSiBI10F606mK9PklaxSUwJIqo37qx6j2WJl6685Ouo2AjPC+EgjhiTjRN79OzUATthcC9yf3nSEjk02C8AiHWPQDTNSYvXVnOV0XkKmUwzryi52nMAQawIDAQAB';

export const GECKO_ID = 'codex-devtools@codex-devtools';

export default defineConfig({
  srcDir: 'extension',
  // Icons (icon-16…128.png, made by scripts/make-icons.mjs) live with the extension's sources.
  publicDir: 'extension/public',
  modules: ['@wxt-dev/module-vue', '@wxt-dev/webextension-polyfill'],
  manifest: ({ browser, manifestVersion, mode }) => ({
    name: 'Codex DevTools',
    // alarms: wakes the background to retry while the companion is down (see lib/background.ts).
    permissions: ['storage', 'alarms'],
    host_permissions: ['http://127.0.0.1/*'],
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            // data_collection_permissions is required for new AMO listings and needs Firefox 140 (Android 142).
            // Nothing is collected: the extension only talks to the companion on this machine.
            gecko: { id: GECKO_ID, strict_min_version: '140.0', data_collection_permissions: { required: ['none'] } },
            gecko_android: { strict_min_version: '142.0' },
          },
          // Firefox MV3's default CSP carries upgrade-insecure-requests, which turns
          // ws://127.0.0.1 into wss:// and leaves the companion unreachable.
          ...(manifestVersion === 3 ? { content_security_policy: { extension_pages: "script-src 'self'; object-src 'self';" } } : {}),
        }
      : mode === 'store'
        ? {}
        : { key: CHROME_KEY }),
  }),
  zip: {
    excludeSources: ['**/node_modules/**', '.output/**', 'dist/**', 'test-results/**', '**/*.log', '.tmp/**'],
  },
});
