/** @module Capture on/off (forwarding never stops) and the count of capture failures, for the API and feed. */
import { readSettings, updateSettings } from '../lib/settings';
import type { CaptureState } from '../protocol/live';

export class CaptureControl {
  private paused_: boolean;
  private listeners: ((s: CaptureState) => void)[] = [];

  constructor(
    private readonly home: string,
    private readonly failures: () => { count: number; last: string | null; exportFailures?: number; exportLastError?: string | null },
  ) {
    this.paused_ = readSettings(home).capturePaused === true;
  }

  get paused(): boolean {
    return this.paused_;
  }

  setPaused(paused: boolean): CaptureState {
    this.paused_ = paused;
    updateSettings(this.home, { capturePaused: paused });
    const s = this.state();
    for (const l of this.listeners) l(s);
    return s;
  }

  onChange(fn: (s: CaptureState) => void): void {
    this.listeners.push(fn);
  }

  state(): CaptureState {
    const f = this.failures();
    const state: CaptureState = { paused: this.paused_, errors: f.count, lastError: f.last };
    if (f.exportFailures !== undefined)
      Object.assign(state, { exportFailures: f.exportFailures, exportLastError: f.exportLastError ?? null });
    return state;
  }
}
