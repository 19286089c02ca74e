/**
 * @module The capture addons every companion runs: live progress, sub-agent nicknames,
 * rate limits, and the store (which also announces completed exchanges and new totals).
 */
import type { CompanionContext } from '../context';
import type { LiveUsage } from '../protocol/live';
import type { AnalysisStep } from './analysis-step';
import type { ExchangeFlow } from './flow';
import { spawnedNicknames } from './nicknames';
import { summaryOf } from '../store/codec';

export function installCaptureAddons(ctx: CompanionContext, analysis: AnalysisStep, liveUsage: () => LiveUsage): void {
  const nicknames = new Map<string, string>();
  const applyNickname = (flow: ExchangeFlow) => {
    const nick = flow.identity.threadId ? nicknames.get(flow.identity.threadId) : undefined;
    if (nick) flow.identity = { ...flow.identity, agentNickname: nick };
  };

  ctx.addons.add({
    name: 'nicknames',
    request(flow) {
      applyNickname(flow);
      for (const [threadId, nickname] of spawnedNicknames(flow.requestBody)) {
        if (nicknames.get(threadId) === nickname) continue;
        nicknames.set(threadId, nickname);
        // Exchanges of that child captured before the parent revealed its nickname.
        for (const s of ctx.store.list({ thread: threadId, limit: 1000 }).items) {
          if (s.agent.nickname === nickname) continue;
          const agent = { ...s.agent, nickname };
          void ctx.store.update(s.id, { agent });
          ctx.hub.exchangeUpdated({ ...s, agent });
        }
      }
    },
  });

  ctx.addons.add({
    name: 'live',
    request: (flow) => {
      ctx.inflight.set(flow.id, flow);
      ctx.hub.exchangeStarted(flow.toSummary());
    },
    event: (flow) => ctx.hub.exchangeProgress({ id: flow.id, events: flow.events.length, text: () => flow.assembler.text() }),
  });

  const finish = async (flow: ExchangeFlow) => {
    applyNickname(flow);
    const record = flow.toRecord();
    // Durable first: the capture is written before the (slower, recomputable) analysis runs.
    await ctx.store.append(record);
    ctx.inflight.delete(flow.id);
    // WebSocket readings reached the state as they arrived (ws-session.ts); applying them again
    // would only repeat the write and the broadcast.
    if (record.rateLimits && record.transport === 'http') ctx.hub.rateLimitsUpdated(ctx.rateLimits.update(record.rateLimits));
    await analysis.run(record);
    ctx.hub.exchangeCompleted(ctx.store.summary(record.id) ?? summaryOf(record));
    if (record.kind === 'model') ctx.hub.usageUpdated(liveUsage());
  };
  ctx.addons.add({ name: 'store', response: finish, error: finish });
}
