/** @module The versions shared by the companion and the extension: the wire protocol's and the analysis's. No zod here: the capture worker reads them without loading the schemas. */

/**
 * Bumped whenever a message or record shape changes incompatibly. Both sides send it in the
 * live-feed hello, so a companion and an extension of different versions say so plainly.
 */
export const PROTOCOL_VERSION = 2;

/**
 * Bumped when the analysis of a stored record must be recomputed. 3: the why, evidence, pricing
 * note and calibration warning carry codes the panel translates (text-code.ts).
 */
export const ANALYSIS_VERSION = 3;
