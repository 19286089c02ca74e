/**
 * @module The live text of a streaming exchange on the main thread: the capture worker's item
 * deltas appended in order (already bounded per item there), and what one subscriber has not
 * been sent yet, at most a budget of characters per message so a long catch-up is paced.
 */
import type { LiveItemDelta, LiveItemKind } from '../protocol/live';

/** Characters of item text one progress message carries to one client; the rest follows in the next. */
export const PROGRESS_TEXT_CHARS = 8192;

export interface LiveItem {
  index: number;
  kind: LiveItemKind;
  name: string | null;
  text: string;
  truncated: boolean;
}

/** What one client has been sent of each item (by output index): characters, and the truncation mark. */
export type SentText = Map<number, { chars: number; cut: boolean }>;

export class LiveText {
  private readonly byIndex = new Map<number, LiveItem>();

  /** Items in output order. */
  get items(): LiveItem[] {
    return [...this.byIndex.values()].sort((a, b) => a.index - b.index);
  }

  apply(deltas: readonly LiveItemDelta[]): void {
    for (const d of deltas) {
      const item = this.byIndex.get(d.index) ?? { index: d.index, kind: d.kind, name: d.name, text: '', truncated: false };
      item.kind = d.kind;
      item.name = d.name ?? item.name;
      item.text += d.delta;
      item.truncated ||= d.truncated === true;
      this.byIndex.set(d.index, item);
    }
  }

  /**
   * What `sent` lacks, at most `budget` characters of text, and marks it sent. `more` says the
   * budget ran out before everything was sent. An item the client has not heard of goes out even
   * with no text yet, so a tool call's name shows before its arguments.
   */
  unsent(sent: SentText, budget = PROGRESS_TEXT_CHARS): { items: LiveItemDelta[]; more: boolean } {
    const items: LiveItemDelta[] = [];
    const all = this.items;
    let left = budget;
    for (const item of all) {
      if (left <= 0) break;
      const known = sent.get(item.index);
      const s = known ?? { chars: 0, cut: false };
      const take = Math.max(0, Math.min(item.text.length - s.chars, left));
      const delta = item.text.slice(s.chars, s.chars + take);
      s.chars += take;
      left -= take;
      // The truncation mark goes once, with the last of the text.
      const mark = item.truncated && !s.cut && s.chars === item.text.length;
      if (mark) s.cut = true;
      if (known && !delta && !mark) continue;
      sent.set(item.index, s);
      items.push({ index: item.index, kind: item.kind, name: item.name, delta, ...(mark ? { truncated: true } : {}) });
    }
    const more = all.some((i) => (sent.get(i.index)?.chars ?? -1) < i.text.length || (i.truncated && !sent.get(i.index)?.cut));
    return { items, more };
  }
}
