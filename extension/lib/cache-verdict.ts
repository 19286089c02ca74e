/** How each cache verdict the companion gives is labelled: words and a tone, nothing computed. */
import type { CacheVerdict } from '../../companion/protocol';

export interface VerdictLabel {
  text: string;
  tone: 'ok' | 'error' | 'neutral';
}

const LABELS: Record<CacheVerdict, VerdictLabel> = {
  hit: { text: 'cache hit', tone: 'ok' },
  miss: { text: 'cache miss', tone: 'error' },
  cold: { text: 'cold cache', tone: 'neutral' },
  unknown: { text: 'cache unknown', tone: 'neutral' },
  not_applicable: { text: 'not applicable', tone: 'neutral' },
};

/** The label of a verdict; an analysis stored before verdicts existed has none and reads as unknown. */
export const verdictLabel = (v: CacheVerdict | null | undefined): VerdictLabel => LABELS[v ?? 'unknown'];
