/** @module A log sink appending to a 0600 file, for when the terminal belongs to Codex (`run`). */
import fs from 'node:fs';

export function fileSink(file: string): (line: string) => void {
  return (line) => {
    try {
      fs.appendFileSync(file, `${new Date().toISOString()} ${line}\n`, { mode: 0o600 });
    } catch {
      // logging must never break capture or forwarding
    }
  };
}
