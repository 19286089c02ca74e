/**
 * The Context tab's model: the request's Tools → Instructions → Input (→ Other), each section
 * with its entries and the analysis' token estimates (raw o200k and calibrated to the reported
 * input), joined by section name.
 */
import type { ContextBreakdown, ContextSection, GroupTotals, SectionGroup } from '../../companion/protocol';
import { requestEntries, type RequestEntry } from './request-items';
import type { ToolView } from './request-tools';

export interface SectionFigures {
  tokens: number;
  calibratedTokens: number | null;
  bytes: number;
  opaqueBytes: number;
}

export interface SectionView {
  name: string;
  figures: SectionFigures | null;
  entries: RequestEntry[];
}

export interface GroupView {
  group: SectionGroup;
  /** The group's totals as the analysis sums them; null when it has no breakdown. */
  figures: SectionFigures | null;
  sections: SectionView[];
}

export interface ContextView {
  tools: ToolView[];
  /** By tool key (`tool:<key>` in the analysis). */
  toolFigures: Map<string, SectionFigures>;
  groups: Record<SectionGroup, GroupView>;
  breakdown: ContextBreakdown | null;
}

export const GROUP_ORDER: readonly SectionGroup[] = ['tools', 'instructions', 'input', 'other'];

const figuresOf = (s: ContextSection | GroupTotals): SectionFigures => ({
  tokens: s.tokens,
  calibratedTokens: s.calibratedTokens,
  bytes: s.bytes,
  opaqueBytes: s.opaqueBytes,
});

/** `tools` are the request's tools as `requestTools` reads them (the detail store holds them once). */
export function contextView(body: unknown, tools: ToolView[], breakdown: ContextBreakdown | null): ContextView {
  const entries = requestEntries(body);
  const bySection = new Map((breakdown?.sections ?? []).map((s) => [s.name, s]));
  const toolFigures = new Map<string, SectionFigures>();
  for (const s of breakdown?.sections ?? [])
    if (s.group === 'tools' && s.name.startsWith('tool:')) toolFigures.set(s.name.slice(5), figuresOf(s));

  const groups = Object.fromEntries(GROUP_ORDER.map((g) => [g, { group: g, figures: null, sections: [] }])) as unknown as Record<
    SectionGroup,
    GroupView
  >;
  const sectionViews = new Map<string, SectionView>();
  for (const e of entries) {
    let view = sectionViews.get(e.section);
    if (!view) {
      const s = bySection.get(e.section);
      view = { name: e.section, figures: s ? figuresOf(s) : null, entries: [] };
      sectionViews.set(e.section, view);
      groups[e.group].sections.push(view);
    }
    view.entries.push(e);
  }
  // Sections the analysis counted that no entry maps to (e.g. the output schema) still show their figures.
  for (const s of breakdown?.sections ?? []) {
    if (s.group === 'tools' || sectionViews.has(s.name)) continue;
    const view = { name: s.name, figures: figuresOf(s), entries: [] };
    sectionViews.set(s.name, view);
    groups[s.group].sections.push(view);
  }
  // Group totals come from the companion (analysis/context.ts), never summed here.
  for (const t of breakdown?.groups ?? []) groups[t.group].figures = figuresOf(t);
  return { tools, toolFigures, groups, breakdown };
}
