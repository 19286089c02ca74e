/**
 * A capture addon whose request hook never returns: it notes that it was reached (the file named
 * by CODEX_DEVTOOLS_TEST_STUCK_MARKER) and then spins, holding its thread. Test-only.
 */
import fs from 'node:fs';
import type { CaptureAddon } from '../../../companion/capture/addons';

const stuck: CaptureAddon = {
  name: 'stuck',
  request: () => {
    const marker = process.env.CODEX_DEVTOOLS_TEST_STUCK_MARKER;
    if (marker) fs.writeFileSync(marker, 'reached');
    for (;;) {
      // spins until the thread is terminated
    }
  },
};
export default stuck;
