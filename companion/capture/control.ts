/** @module Capture on/off (forwarding never stops) and the count of capture failures, for the API and feed. */
import { describeError } from '../lib/log';
import { readSettings, updateSettings } from '../lib/settings';
import type { CaptureState } from '../protocol/live';

export class CaptureControl {
  private paused_: boolean;
  /** Why the last pause/resume could not be saved; cleared by the next save that works. */
  private saveError: string | null = null;
  private listeners: ((s: CaptureState) => void)[] = [];

  constructor(
    private readonly home: string,
    private readonly failures: () => { count: number; last: string | null },
  ) {
    this.paused_ = readSettings(home).capturePaused === true;
  }

  get paused(): boolean {
    return this.paused_;
  }

  /**
   * Pauses or resumes capture. The change takes effect even when it cannot be saved (a full disk):
   * the state then says so in `saveError`, and the choice holds until the companion restarts.
   */
  setPaused(paused: boolean): CaptureState {
    this.paused_ = paused;
    try {
      updateSettings(this.home, { capturePaused: paused });
      this.saveError = null;
    } catch (err) {
      this.saveError = `capture ${paused ? 'paused' : 'resumed'}, but the setting could not be saved (${describeError(err)}); it holds until the companion restarts`;
    }
    const s = this.state();
    for (const l of this.listeners) l(s);
    return s;
  }

  onChange(fn: (s: CaptureState) => void): void {
    this.listeners.push(fn);
  }

  state(): CaptureState {
    const f = this.failures();
    if (!this.saveError) return { paused: this.paused_, errors: f.count, lastError: f.last };
    return { paused: this.paused_, errors: f.count + 1, lastError: this.saveError, saveError: this.saveError };
  }
}
