/** A request's tools as the doc sheet shows them ("as Codex sent it"), by the doc key the companion gives each. */
import type { LayoutTool } from '../../companion/protocol';
import type { LiveTool } from '@/components/docs/sheet-api';

/** The tool as the doc sheet shows it: the description and schema Codex sent. */
export function liveToolOf(t: LayoutTool): LiveTool {
  const description = [t.namespaceDescription, t.description].filter((d): d is string => !!d).join('\n\n');
  return { ...(description ? { description } : {}), ...(t.schema !== undefined ? { schema: t.schema } : {}) };
}

/** Every tool of a request by its doc key (`collaboration.spawn_agent`), nested tools included; the first wins. */
export function liveToolIndex(tools: readonly LayoutTool[]): Map<string, LiveTool> {
  const index = new Map<string, LiveTool>();
  const add = (t: LayoutTool) => {
    if (!index.has(t.docKey)) index.set(t.docKey, liveToolOf(t));
    t.nested.forEach(add);
  };
  tools.forEach(add);
  return index;
}
