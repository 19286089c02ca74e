/** @module A part of the companion that cannot answer now (the capture worker busy or gone): HTTP 503, never a hang. */
export class Unavailable extends Error {
  override readonly name = 'Unavailable';
}
