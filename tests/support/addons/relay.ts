/**
 * A capture addon whose request hook calls the function a test put on `globalThis` as
 * `codexDevtoolsTestRelay`: it lets a test send the worker more messages while the worker is
 * still handling earlier ones (a steady stream, as under load). Test-only.
 */
import type { CaptureAddon } from '../../../companion/capture/addons';

const relay: CaptureAddon = {
  name: 'relay',
  request: () => (globalThis as { codexDevtoolsTestRelay?: () => void }).codexDevtoolsTestRelay?.(),
};
export default relay;
