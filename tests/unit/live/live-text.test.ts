import { describe, expect, it } from 'vitest';
import { LiveText, PROGRESS_TEXT_CHARS, type SentText } from '../../../companion/live/live-text';

const delta = (index: number, text: string, extra: object = {}) => ({
  index,
  kind: 'function_call' as const,
  name: 'exec_command',
  delta: text,
  ...extra,
});

describe('the live text a subscriber is sent', () => {
  it('gives a late subscriber everything so far, then only what is new', () => {
    const live = new LiveText();
    live.apply([delta(0, '{"cmd":'), delta(1, 'Hel')]);
    live.apply([delta(0, '"ls"}'), delta(1, 'lo')]);
    const sent: SentText = new Map();
    expect(live.unsent(sent)).toEqual({
      items: [delta(0, '{"cmd":"ls"}'), delta(1, 'Hello')],
      more: false,
    });
    live.apply([delta(1, ' world')]);
    expect(live.unsent(sent).items).toEqual([delta(1, ' world')]);
    expect(live.unsent(sent).items).toEqual([]);
  });

  it('paces a long catch-up at the per-message budget and says there is more', () => {
    const live = new LiveText();
    const text = 'x'.repeat(PROGRESS_TEXT_CHARS * 2 + 10);
    live.apply([delta(0, text)]);
    const sent: SentText = new Map();
    const parts: string[] = [];
    const first = live.unsent(sent);
    expect(first.more).toBe(true);
    parts.push(...first.items.map((i) => i.delta));
    expect(parts[0]).toHaveLength(PROGRESS_TEXT_CHARS);
    for (let n = 0; n < 5 && parts.join('').length < text.length; n++) parts.push(...live.unsent(sent).items.map((i) => i.delta));
    expect(parts.join('')).toBe(text);
    expect(live.unsent(sent).more).toBe(false);
  });

  it('passes the truncation mark once, with the last of the text', () => {
    const live = new LiveText();
    live.apply([delta(0, 'abc'), delta(0, '', { truncated: true })]);
    const sent: SentText = new Map();
    expect(live.unsent(sent).items).toEqual([delta(0, 'abc', { truncated: true })]);
    expect(live.unsent(sent).items).toEqual([]);
  });

  it('keeps items in output order whatever order they arrived in', () => {
    const live = new LiveText();
    live.apply([delta(2, 'c'), delta(0, 'a')]);
    expect(live.items.map((i) => i.index)).toEqual([0, 2]);
  });
});
