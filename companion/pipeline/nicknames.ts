/**
 * @module The nicknames addon, in the capture worker: learns sub-agent nicknames from parents'
 * `spawn_agent` outputs, applies them to the child's exchanges as they are captured, and says
 * when it learns one, so exchanges stored before the parent revealed the nickname get it too.
 */
import type { CaptureAddon } from '../capture/addons';
import type { ExchangeFlow } from '../capture/flow';
import { spawnedNicknames } from './spawned-nicknames';

export function nicknamesAddon(learned: (threadId: string, nickname: string) => void): CaptureAddon {
  const nicknames = new Map<string, string>();
  const apply = (flow: ExchangeFlow) => {
    const nick = flow.identity.threadId ? nicknames.get(flow.identity.threadId) : undefined;
    if (nick) flow.identity = { ...flow.identity, agentNickname: nick };
  };
  return {
    name: 'nicknames',
    request(flow) {
      apply(flow);
      for (const [threadId, nickname] of spawnedNicknames(flow.requestBody)) {
        if (nicknames.get(threadId) === nickname) continue;
        nicknames.set(threadId, nickname);
        learned(threadId, nickname);
      }
    },
    // A child's exchange may have started before its parent named it.
    response: apply,
    error: apply,
  };
}
