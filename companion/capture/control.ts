/** @module Capture on/off (forwarding never stops) and the count of capture failures, for the API and feed. */
import fs from 'node:fs';
import { paths, writePrivateFile } from '../store/layout';
import type { CaptureState } from '../protocol/live';

export class CaptureControl {
  private paused_: boolean;
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

  setPaused(paused: boolean): CaptureState {
    this.paused_ = paused;
    writePrivateFile(paths(this.home).settings, JSON.stringify({ ...readSettings(this.home), capturePaused: paused }) + '\n');
    const s = this.state();
    for (const l of this.listeners) l(s);
    return s;
  }

  onChange(fn: (s: CaptureState) => void): void {
    this.listeners.push(fn);
  }

  state(): CaptureState {
    const f = this.failures();
    return { paused: this.paused_, errors: f.count, lastError: f.last };
  }
}

function readSettings(home: string): Record<string, unknown> {
  try {
    return JSON.parse(fs.readFileSync(paths(home).settings, 'utf8')) as Record<string, unknown>;
  } catch {
    return {}; // no settings yet
  }
}
