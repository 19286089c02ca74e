/**
 * A capture addon whose response hook takes a while (CODEX_DEVTOOLS_TEST_SLOW_MS, default 400 ms):
 * extra addons run before storage, so the exchange is stored well after Codex has its last byte.
 * Test-only.
 */
import type { CaptureAddon } from '../../../companion/capture/addons';

const slow: CaptureAddon = {
  name: 'slow',
  response: () => new Promise((r) => setTimeout(r, Number(process.env.CODEX_DEVTOOLS_TEST_SLOW_MS ?? 400))),
};
export default slow;
