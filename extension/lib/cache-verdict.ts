/** How each cache verdict the companion gives is labelled: words and a tone, nothing computed. */
import type { CacheVerdict } from '../../companion/protocol';
import { tr } from './i18n';

export interface VerdictLabel {
  text: string;
  tone: 'ok' | 'error' | 'neutral';
}

const TONES: Record<CacheVerdict, VerdictLabel['tone']> = {
  hit: 'ok',
  miss: 'error',
  cold: 'neutral',
  unknown: 'neutral',
  not_applicable: 'neutral',
};

/** The label of a verdict; an analysis stored before verdicts existed has none and reads as unknown. */
export const verdictLabel = (v: CacheVerdict | null | undefined): VerdictLabel => ({
  text: tr(`cache.verdict.${v ?? 'unknown'}`),
  tone: TONES[v ?? 'unknown'],
});
