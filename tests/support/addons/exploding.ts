/** A capture addon that throws in every hook it has (loaded into the capture worker by URL). Test-only. */
import type { CaptureAddon } from '../../../companion/capture/addons';

const exploding: CaptureAddon = {
  name: 'exploding',
  request: () => {
    throw new Error('boom in request');
  },
  event: () => {
    throw new Error('boom in event');
  },
  response: async () => {
    throw new Error('boom in response');
  },
};
export default exploding;
