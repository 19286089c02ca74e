import { defineConfig } from 'wxt';

/**
 * Fixed public key so Chrome derives the same extension id on every install
 * (pairing links and stored settings survive reinstalls). Id: dceflbcgefibjiafpacongiijjkjedae.
 */
const CHROME_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtS4ew0g0gmbdbWFwMb7q9FmJqpUsSJvYtuVG8ThT5kuUWL40ZMOmItEOJPZAQecHC4vBhK97qqaUtJAGLIvRUagXza5JtI5PrpC8+/d6hvIVEoMXDAarmcTiUKJj63yGFkiPzPCe/J5/OOv/O6uoIXdEIVBzIJEu/uE6aEx6IubQ+7mkgkOIfmMdVlfek5E3euIFOwbPCIAq5drc0hWsXOE5nJ6OfrfriSiBI10F606mK9PklaxSUwJIqo37qx6j2WJl6685Ouo2AjPC+EgjhiTjRN79OzUATthcC9yf3nSEjk02C8AiHWPQDTNSYvXVnOV0XkKmUwzryi52nMAQawIDAQAB';

export const GECKO_ID = 'codex-devtools@codex-devtools';

export default defineConfig({
  srcDir: 'extension',
  modules: ['@wxt-dev/module-vue', '@wxt-dev/webextension-polyfill'],
  manifest: ({ browser, manifestVersion }) => ({
    name: 'Codex DevTools',
    // alarms: wakes the background to retry while the companion is down (see lib/background.ts).
    permissions: ['storage', 'alarms'],
    host_permissions: ['http://127.0.0.1/*'],
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: { gecko: { id: GECKO_ID, strict_min_version: '115.0' } },
          // Firefox MV3's default CSP carries upgrade-insecure-requests, which turns
          // ws://127.0.0.1 into wss:// and leaves the companion unreachable.
          ...(manifestVersion === 3 ? { content_security_policy: { extension_pages: "script-src 'self'; object-src 'self';" } } : {}),
        }
      : { key: CHROME_KEY }),
  }),
  zip: {
    excludeSources: ['**/node_modules/**', '.output/**', 'dist/**', 'test-results/**', '**/*.log', '.tmp/**'],
  },
});
