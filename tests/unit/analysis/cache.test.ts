import { describe, expect, it } from 'vitest';
import { analyzeExchange } from '../../../companion/analysis/analyze';
import type { CacheReasonCode } from '../../../companion/protocol/analysis';
import { loadFixture, recordFrom, reportedUsage, withUsage, type Fixture, type RecordOptions } from '../../support/records';

// Fixture bodies are untyped JSON; the tests index into them with `any`.
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

interface PairOptions {
  base?: 'fallback-tool-call' | 'codemode-tool-call';
  /** Idle time between the end of the first request and the start of the second. */
  gapMs?: number;
  /** Make the upstream report what a miss looks like: nothing cached on the second request. */
  missed?: boolean;
  current?: RecordOptions;
  options?: Parameters<typeof analyzeExchange>[2];
}

/**
 * A real two-request turn captured from Codex (a tool call, then its output), with the second
 * request edited in exactly one respect by `edit`.
 */
async function pair(edit: (fx: Fixture) => void, o: PairOptions = {}) {
  const base = o.base ?? 'fallback-tool-call';
  const first = loadFixture(`${base}-1.json`);
  const second = loadFixture(`${base}-2.json`);
  edit(second);
  if (o.missed ?? true) withUsage(second, { input: reportedUsage(second).input_tokens, cached: 0, output: 24 });
  const previous = await recordFrom(first, { id: 'prev', startedAt: T0, durationMs: 2000 });
  const current = await recordFrom(second, { id: 'cur', startedAt: T0 + 2000 + (o.gapMs ?? 3000), ...o.current });
  return analyzeExchange(current, previous, o.options);
}

const codes = (a: { cache: { reasons: { code: CacheReasonCode }[] } }) => a.cache.reasons.map((r) => r.code);
const detail = (a: { cache: { reasons: { code: string; detail: string }[] } }, code: string) =>
  a.cache.reasons.find((r) => r.code === code)?.detail;
const unchanged = () => undefined;

describe('cache analysis of a normal turn', () => {
  it('reports a request that only appends to the previous one as a hit, with no reasons', async () => {
    for (const base of ['fallback-tool-call', 'codemode-tool-call'] as const) {
      const a = await pair(unchanged, { base, missed: false });
      expect(a.cache.miss).toBe(false);
      expect(a.cache.reasons).toEqual([]);
      expect(a.cache.expectedCachedTokens).toBeGreaterThan(1024);
      expect(a.diff!.prefixPreserved).toBe(true);
    }
  });

  it('expects the previous input plus output, in 128-token blocks', async () => {
    const a = await pair(unchanged, { missed: false });
    const first = reportedUsage(loadFixture('fallback-tool-call-1.json'));
    expect(a.cache.expectedCachedTokens).toBe(Math.floor((first.input_tokens + first.output_tokens) / 128) * 128);
  });

  it('marks the first request of a thread cold when nothing was cached, which is never a miss', async () => {
    const first = await recordFrom(loadFixture('fallback-tool-call-1.json'));
    const a = analyzeExchange(first, null);
    expect(a.cache).toMatchObject({ verdict: 'cold', miss: false, expectedCachedTokens: 0, previousId: null, reasons: [] });
    expect(a.cache.why).toContain(first.identity.promptCacheKey!);
  });

  it('shows an unknown hit rate, not 0 %, when the upstream reports no cache field', async () => {
    const a = await pair(
      (fx) => {
        for (const e of fx.response_sent_by_fake_upstream!.sse_events!) delete (e.response as any)?.usage?.input_tokens_details;
      },
      { missed: false },
    );
    expect(a.cache.hitRate).toBeNull();
    expect(a.cache.miss).toBe(false);
  });

  it('expects nothing cached after a previous request below 1,024 tokens', async () => {
    const first = withUsage(loadFixture('fallback-tool-call-1.json'), { input: 1000, cached: 0, output: 20 });
    const second = withUsage(loadFixture('fallback-tool-call-2.json'), { input: 1100, cached: 0, output: 20 });
    const a = analyzeExchange(await recordFrom(second, { startedAt: T0 + 5000 }), await recordFrom(first, { startedAt: T0 }));
    expect(a.cache).toMatchObject({ verdict: 'cold', expectedCachedTokens: 0, miss: false, reasons: [] });
    expect(a.cache.why).toContain('below the 1,024 tokens');
  });
});

describe('miss threshold', () => {
  const cachedPair = (cached: number, options?: PairOptions['options']) =>
    pair((fx) => withUsage(fx, { input: reportedUsage(fx).input_tokens, cached, output: 24 }), { missed: false, options });

  it('is not a miss when the shortfall is exactly max(1,024, 10 %) of the expectation', async () => {
    expect((await cachedPair(8192 - 1024)).cache.miss).toBe(false);
    expect((await cachedPair(8192 - 1025)).cache.miss).toBe(true);
  });

  it('takes its token and ratio thresholds from the options', async () => {
    expect((await cachedPair(8192 - 200, { missMinTokens: 100, missMinRatio: 0.01 })).cache.miss).toBe(true);
    expect((await cachedPair(8192 - 2000, { missMinTokens: 1024, missMinRatio: 0.5 })).cache.miss).toBe(false);
  });

  it('prices a miss as the tokens that would have been cached, at the full rate above the cached rate', async () => {
    const a = await pair(unchanged);
    const input = a.context!.reportedInputTokens!;
    expect(a.cache.missedTokens).toBe(Math.min(8192, input));
    expect(a.cache.missCostUsd).toBeCloseTo((a.cache.missedTokens! * (1.25 - 0.125)) / 1e6, 12);
  });

  it('never expects more than the request’s own input, nor counts more missed tokens than its uncached input', async () => {
    // The previous request left 8,192 tokens cacheable; this one sends only 5,000.
    const a = await pair((fx) => withUsage(fx, { input: 5000, cached: 1000, output: 24 }), { missed: false });
    expect(a.cache).toMatchObject({ verdict: 'miss', miss: true, expectedCachedTokens: 4992, missedTokens: 3992 });
  });
});

describe('cache miss reasons, one per edit of a real pair', () => {
  it('names an idle gap longer than the cache lifetime', async () => {
    const a = await pair(unchanged, { gapMs: 6 * 60_000 });
    expect(codes(a)).toEqual(['idle_gap']);
    expect(detail(a, 'idle_gap')).toMatch(/6 min 0 s idle/);
  });

  it('does not call an idle gap a miss when the cache still served the prefix', async () => {
    const a = await pair(unchanged, { gapMs: 6 * 60_000, missed: false });
    expect(a.cache.miss).toBe(false);
    expect(a.cache.reasons).toEqual([]);
  });

  it('takes the cache lifetime from the options', async () => {
    expect(codes(await pair(unchanged, { gapMs: 90_000, options: { cacheTtlMs: 60_000 } }))).toEqual(['idle_gap']);
  });

  it('names a tool whose description changed in body.tools', async () => {
    const a = await pair((fx) => {
      fx.request!.body.tools.find((t: any) => t.name === 'exec_command').description += ' Prefer rg.';
    });
    expect(codes(a)).toEqual(['tools_changed']);
    expect(detail(a, 'tools_changed')).toBe('changed exec_command (description)');
  });

  it('names a tool added to body.tools', async () => {
    const a = await pair((fx) => {
      fx.request!.body.tools.push({
        type: 'function',
        name: 'lookup',
        description: 'Looks up.',
        parameters: { type: 'object', properties: {} },
      });
    });
    expect(codes(a)).toEqual(['tools_changed']);
    expect(detail(a, 'tools_changed')).toBe('added lookup');
  });

  it('names a schema change of a tool in a code-mode additional_tools item', async () => {
    const a = await pair(
      (fx) => {
        const catalog = fx.request!.body.input.find((i: any) => i.type === 'additional_tools');
        const spawn = catalog.tools.find((t: any) => t.name === 'collaboration').tools.find((t: any) => t.name === 'spawn_agent');
        spawn.parameters.properties.priority = { type: 'string' };
      },
      { base: 'codemode-tool-call' },
    );
    expect(codes(a)).toEqual(['tools_changed']);
    expect(detail(a, 'tools_changed')).toBe('changed collaboration.spawn_agent (parameters)');
  });

  it('names a tool nested in the code-mode exec description', async () => {
    const a = await pair(
      (fx) => {
        const catalog = fx.request!.body.input.find((i: any) => i.type === 'additional_tools');
        const exec = catalog.tools.find((t: any) => t.name === 'functions').tools.find((t: any) => t.name === 'exec');
        exec.description = exec.description.replace('// Shell command to execute.', '// Shell command to run.');
      },
      { base: 'codemode-tool-call' },
    );
    expect(codes(a)).toEqual(['tools_changed']);
    expect(detail(a, 'tools_changed')).toBe('changed exec/exec_command (description)');
  });

  it('names changed instructions (the leading developer messages)', async () => {
    const a = await pair((fx) => {
      fx.request!.body.input[0].content[0].text += '\nBe brief.';
    });
    expect(codes(a)).toEqual(['instructions_changed']);
    expect(detail(a, 'instructions_changed')).toBe('developer message at input 0 changed (content)');
  });

  it('names a model change', async () => {
    const a = await pair((fx) => {
      fx.request!.body.model = 'gpt-5.5';
    });
    expect(codes(a)).toEqual(['model_changed']);
    expect(detail(a, 'model_changed')).toBe('model gpt-5-codex → gpt-5.5');
  });

  it('names a reasoning effort change', async () => {
    const a = await pair((fx) => {
      fx.request!.body.reasoning.effort = 'high';
    });
    expect(codes(a)).toEqual(['reasoning_changed']);
    expect(detail(a, 'reasoning_changed')).toBe('effort none → high');
  });

  it('names a service tier change', async () => {
    const a = await pair((fx) => {
      fx.request!.body.service_tier = 'priority';
    });
    expect(codes(a)).toEqual(['reasoning_changed']);
    expect(detail(a, 'reasoning_changed')).toBe('service tier none → priority');
  });

  it('judges the request after a compaction against its own input (real pair: the compaction request, then window 1)', async () => {
    const previous = await recordFrom(loadFixture('fallback-compaction-local-2.json'), { id: 'compaction', startedAt: T0 });
    const current = await recordFrom(loadFixture('fallback-compaction-local-3.json'), { id: 'after', startedAt: T0 + 3000 });
    const a = analyzeExchange(current, previous);
    // 250,000 tokens were cacheable before; the 8,386-token request read all it could hold.
    expect(a.cache).toMatchObject({ verdict: 'hit', expectedCachedTokens: 8320, reasons: [] });
  });

  it('names input rewritten by a compaction (real pair: the compaction request, then window 1, read nothing cached)', async () => {
    const previous = await recordFrom(loadFixture('fallback-compaction-local-2.json'), { id: 'compaction', startedAt: T0 });
    const fx = loadFixture('fallback-compaction-local-3.json');
    withUsage(fx, { input: reportedUsage(fx).input_tokens, cached: 0, output: 24 });
    const current = await recordFrom(fx, { id: 'after', startedAt: T0 + 3000 });
    const a = analyzeExchange(current, previous);
    expect(a.cache.miss).toBe(true);
    // The local compaction request carried no tools; the next request has them again.
    expect(codes(a)).toEqual(['tools_changed', 'input_rewritten']);
    expect(detail(a, 'input_rewritten')).toMatch(/^window 0 → 1/);
  });

  it('names input truncated when earlier items were dropped', async () => {
    const a = await pair((fx) => {
      const input = fx.request!.body.input;
      input.splice(
        input.findIndex((i: any) => i.role === 'user'),
        1,
      );
    });
    expect(codes(a)).toEqual(['input_truncated']);
    expect(detail(a, 'input_truncated')).toMatch(/^1 earlier item\(s\) removed, first: user: <environment_context>/);
  });

  it('names an earlier input item that was modified, and how', async () => {
    const a = await pair((fx) => {
      fx.request!.body.input[3].content[0].text = 'run echo hello';
    });
    expect(codes(a)).toEqual(['input_modified']);
    expect(detail(a, 'input_modified')).toBe('input 3 (user: run echo hello) changed: content');
  });

  it('names a changed prompt_cache_key', async () => {
    const a = await pair((fx) => {
      fx.request!.body.prompt_cache_key = 'another-key';
    });
    expect(codes(a)).toEqual(['cache_key_changed']);
  });

  it('names a change of upstream or profile', async () => {
    const a = await pair(unchanged, { current: { route: { upstream: 'https://chatgpt.com/backend-api/codex' } } });
    expect(codes(a)).toEqual(['upstream_changed']);
    const b = await pair(unchanged, { current: { route: { profileId: 'work' } } });
    expect(detail(b, 'upstream_changed')).toBe('profile default → work');
  });

  it('calls a miss with no change found unexplained (likely server-side eviction)', async () => {
    const a = await pair(unchanged);
    expect(a.cache.miss).toBe(true);
    expect(codes(a)).toEqual(['unexplained']);
    expect(detail(a, 'unexplained')).toMatch(/only appended/);
  });

  it('finds the real elided b-tool-call pair a hit: its scripted second request (5,000) is shorter than the first, so expects at most 4,992', async () => {
    const previous = await recordFrom(loadFixture('b-tool-call-1.json'), { startedAt: T0 });
    const current = await recordFrom(loadFixture('b-tool-call-2.json'), { startedAt: T0 + 3000 });
    expect(analyzeExchange(current, previous).cache).toMatchObject({ verdict: 'hit', expectedCachedTokens: 4992, reasons: [] });
  });
});

describe('cache analysis without a captured body', () => {
  it('still judges the miss, and names only what the timing shows', async () => {
    const first = await recordFrom(loadFixture('fallback-tool-call-1.json'), { id: 'prev', startedAt: T0, durationMs: 2000 });
    const second = await recordFrom(withUsage(loadFixture('fallback-tool-call-2.json'), { input: 8380, cached: 0, output: 24 }), {
      id: 'cur',
      startedAt: T0 + 5000,
    });
    const bodiless = { ...second, request: { ...second.request, body: undefined, bodyNote: 'not captured: too large' } };
    const a = analyzeExchange(bodiless, first);
    expect(a.cache.miss).toBe(true);
    expect(codes(a)).toEqual(['unexplained']);
    expect(a.context).toBeNull();
    const late = analyzeExchange({ ...bodiless, startedAt: T0 + 10 * 60_000 }, first);
    expect(codes(late)).toEqual(['idle_gap']);
  });
});
