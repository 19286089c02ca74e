/** The selected exchange's output items while it streams, as the companion's progress deltas build them. */
import type { LiveItemDelta, LiveItemKind } from '../../companion/protocol';

export interface LiveOutputItem {
  index: number;
  kind: LiveItemKind;
  name: string | null;
  text: string;
  /** The companion stopped sending this item's text live; the record has all of it when the response ends. */
  truncated: boolean;
}

/** Appends each delta to its item (new items in output order); the list is changed in place. */
export function applyLiveDeltas(items: LiveOutputItem[], deltas: readonly LiveItemDelta[]): void {
  for (const d of deltas) {
    let item = items.find((i) => i.index === d.index);
    if (!item) {
      item = { index: d.index, kind: d.kind, name: d.name, text: '', truncated: false };
      const at = items.findIndex((i) => i.index > d.index);
      items.splice(at < 0 ? items.length : at, 0, item);
    }
    item.name = d.name ?? item.name;
    item.text += d.delta;
    if (d.truncated) item.truncated = true;
  }
}
