/**
 * @module Content decoding for capture only. What Codex sends and receives is forwarded as it
 * is; these decoders produce the plain bytes the capture parses. Node 20 has no zstd in zlib,
 * so zstd uses fzstd (pure JS, streaming).
 */
import zlib from 'node:zlib';
import { Decompress as ZstdStream, decompress as zstdDecompress } from 'fzstd';

export type Encoding = 'identity' | 'gzip' | 'deflate' | 'br' | 'zstd';

/** Parses a `content-encoding` value; null for anything we cannot decode (e.g. stacked codings). */
export function parseEncoding(value: string | null): Encoding | null {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === 'identity') return 'identity';
  if (v === 'gzip' || v === 'x-gzip') return 'gzip';
  if (v === 'deflate' || v === 'br' || v === 'zstd') return v;
  return null;
}

/** Decodes a whole body; throws on corrupt input (the caller records why). */
export function decodeBody(raw: Uint8Array, encoding: Encoding): Uint8Array {
  switch (encoding) {
    case 'identity':
      return raw;
    case 'gzip':
      return zlib.gunzipSync(raw);
    case 'deflate':
      return zlib.inflateSync(raw);
    case 'br':
      return zlib.brotliDecompressSync(raw);
    case 'zstd':
      return zstdDecompress(raw);
  }
}

export interface StreamDecoder {
  push(chunk: Uint8Array): void;
  /** Resolves once every decoded byte has been delivered. */
  end(): Promise<void>;
}

/** Streaming decoder delivering plain bytes in order to `onData`; errors go to `onError` once. */
export function createStreamDecoder(encoding: Encoding, onData: (b: Uint8Array) => void, onError: (e: unknown) => void): StreamDecoder {
  if (encoding === 'identity') return { push: onData, end: async () => {} };
  let failed = false;
  const fail = (e: unknown) => {
    if (!failed) onError(e);
    failed = true;
  };
  if (encoding === 'zstd') {
    const z = new ZstdStream((chunk) => onData(chunk));
    return {
      push: (c) => {
        if (failed) return;
        try {
          z.push(c);
        } catch (e) {
          fail(e);
        }
      },
      end: async () => {
        if (failed) return;
        try {
          z.push(new Uint8Array(0), true);
        } catch (e) {
          fail(e);
        }
      },
    };
  }
  const stream = encoding === 'gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : zlib.createBrotliDecompress();
  stream.on('data', (b: Buffer) => onData(b));
  const done = new Promise<void>((resolve) => {
    stream.on('end', resolve);
    stream.on('error', (e) => {
      fail(e);
      resolve();
    });
  });
  return {
    push: (c) => {
      if (!failed) stream.write(c);
    },
    end: () => {
      stream.end();
      return done;
    },
  };
}
