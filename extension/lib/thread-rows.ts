/** A session's thread tree flattened into rows with their depth, parents before children, for a table. */
import type { ThreadNode } from '../../companion/protocol';
import { tr } from './i18n';

export interface ThreadRow {
  node: ThreadNode;
  depth: number;
}

export function threadRows(roots: readonly ThreadNode[]): ThreadRow[] {
  const out: ThreadRow[] = [];
  const walk = (n: ThreadNode, depth: number) => {
    out.push({ node: n, depth });
    for (const c of [...n.children].sort((a, b) => a.startedAt - b.startedAt)) walk(c, depth + 1);
  };
  for (const r of roots) walk(r, 0);
  return out;
}

/** `main`, or the child's nickname and task name (`Ada · greeter`), else its thread id's start. */
export function threadLabel(n: ThreadNode): string {
  if (n.role === 'main') return tr('agent.mainAgent');
  const task = n.agentName && n.agentName !== '/root' ? n.agentName.replace(/^\/root\//, '') : null;
  return [n.nickname, task].filter(Boolean).join(' · ') || tr('agent.subagentId', { id: n.threadId.slice(-8) });
}
