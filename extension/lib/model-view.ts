/** The model cell: "requested → served" when the model that answered is not the one Codex asked for. */
import type { ExchangeSummary } from '../../companion/protocol';
import { UNKNOWN } from './format';
import { tr } from './i18n';

export interface ModelView {
  text: string;
  title: string;
  /** The served model differs from the requested one. */
  differs: boolean;
}

export function modelView(s: Pick<ExchangeSummary, 'model' | 'route'>): ModelView {
  const requested = s.route.modelRequested;
  const sent = s.route.modelSent;
  // `model` is the one the response names; before (or without) a response, the one sent upstream.
  const served = s.model ?? sent;
  const differs = requested !== null && served !== null && requested !== served;
  const title = [
    tr('model.requested', { model: requested ?? tr('format.unknown') }),
    sent !== null && sent !== requested ? tr('model.sent', { model: sent }) : '',
    tr('model.served', { model: served ?? tr('format.unknown') }),
  ]
    .filter(Boolean)
    .join(' · ');
  return { text: differs ? `${requested} → ${served}` : (served ?? requested ?? UNKNOWN), title, differs };
}
