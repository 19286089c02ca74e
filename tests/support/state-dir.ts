/**
 * Reads everything in a state directory as text, decoding the store's compressed payloads, so
 * a search for a string covers what is really stored. Test-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** Each file's raw text plus, for store lines, their inflated payloads. */
export function stateDirText(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of files(dir)) {
    const raw = fs.readFileSync(file);
    let text = raw.toString('utf8');
    if (file.endsWith('.jsonl')) {
      for (const line of text.split('\n')) {
        try {
          const v = JSON.parse(line) as { p?: string; z?: string };
          for (const packed of [v.p, v.z]) if (packed) text += '\n' + zlib.inflateRawSync(Buffer.from(packed, 'base64')).toString('utf8');
        } catch {
          // a torn or foreign line is searched as raw text only
        }
      }
    }
    out.set(file, text);
  }
  return out;
}
