/**
 * The Context tab's model: the request's Tools → Instructions → Input (→ Other) as the companion
 * lays it out, each section with its entries and the analysis' token estimates (raw o200k and
 * calibrated to the reported input), joined by section name. Nothing here reads the request body
 * but to show an entry's own JSON.
 */
import type {
  ContextBreakdown,
  ContextSection,
  GroupTotals,
  LayoutEntry,
  LayoutTool,
  RequestLayout,
  SectionGroup,
} from '../../companion/protocol';
import { SECTION } from '../../companion/protocol';
import { tr } from './i18n';
import { asArray, isObject } from './json';

/** A layout entry with the item it stands for (the raw JSON behind it, for the JSON view). */
export interface RequestEntry extends LayoutEntry {
  item: unknown;
}

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
  tools: LayoutTool[];
  /** By tool key (`tool:<key>` in the analysis). */
  toolFigures: Map<string, SectionFigures>;
  groups: Record<SectionGroup, GroupView>;
  breakdown: ContextBreakdown | null;
}

const SECTION_KEYS = new Map<string, string>(Object.entries(SECTION).map(([key, name]) => [name, key]));

/** A section's name as the UI shows it: translated for the sections the protocol names, else as sent. */
export function sectionLabel(name: string): string {
  const key = SECTION_KEYS.get(name);
  return key ? tr(`section.${key}`) : name;
}

export const GROUP_ORDER: readonly SectionGroup[] = ['tools', 'instructions', 'input', 'other'];

const figuresOf = (s: ContextSection | GroupTotals): SectionFigures => ({
  tokens: s.tokens,
  calibratedTokens: s.calibratedTokens,
  bytes: s.bytes,
  opaqueBytes: s.opaqueBytes,
});

/** The companion's layout of the request, joined to its token estimates by section name. */
export function contextView(body: unknown, layout: RequestLayout | null, breakdown: ContextBreakdown | null): ContextView {
  const b = isObject(body) ? body : {};
  const input = asArray(b.input);
  const tools = layout?.tools ?? [];
  const entries: RequestEntry[] = (layout?.entries ?? []).map((e) => ({ ...e, item: e.index < 0 ? b.instructions : input[e.index] }));
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
