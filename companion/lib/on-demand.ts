/**
 * @module A part of the companion loaded the first time it is needed: the API (Hono, its routes
 * and their schemas) and `ws` cost several megabytes per process that a companion nobody has
 * called yet would hold all day. One load serves every caller; a failed load is tried again by
 * the next.
 */
export interface OnDemand<T> {
  get(): Promise<T>;
  /** The part, if it has loaded. */
  loaded(): T | null;
}

export function onDemand<T>(load: () => Promise<T>): OnDemand<T> {
  let value: T | null = null;
  let pending: Promise<T> | null = null;
  return {
    get: () =>
      (pending ??= load().then(
        (v) => (value = v),
        (err: unknown) => {
          pending = null;
          throw err;
        },
      )),
    loaded: () => value,
  };
}
