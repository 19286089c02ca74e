/** @module The wire-protocol version shared by the companion and the extension. */

/**
 * Bumped whenever a message or record shape changes incompatibly. Both sides send it in the
 * live-feed hello, so a companion and an extension of different versions say so plainly.
 */
export const PROTOCOL_VERSION = 2;
