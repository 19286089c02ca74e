/**
 * @module A stable code and its parameters beside an English sentence the companion serves (a
 * cache verdict's why, a miss reason's evidence, a pricing note, a calibration warning, an entry
 * label), so the panel can say it in the user's language. The English stays for the CLI, API
 * users and extensions that do not know the code; a client that does renders the code instead.
 */
import { z } from 'zod';

/** Names (tool keys, field names) given as evidence; `more` of them were left out. */
export const TextListSchema = z.object({ items: z.array(z.string()), more: z.number().int().nonnegative() });
export type TextList = z.infer<typeof TextListSchema>;

/**
 * A parameter: text shown as it is (a model, a field, a tool name, captured content), a number,
 * or a list of names. A number's kind is in its name: `…Ms` a duration in milliseconds, `scale`
 * a multiplier, anything else a count.
 */
export const TextParamSchema = z.union([z.string(), z.number(), TextListSchema]);
export type TextParam = z.infer<typeof TextParamSchema>;

/**
 * @example { code: 'cacheWhy.miss', params: { cached: 0, expected: 8192, shortfall: 8192 } }
 * A string, not an enum: a code added by a newer companion must not make an older extension
 * reject the record; the extension shows the English for a code it does not know.
 */
export const TextCodeSchema = z.object({
  /** `<area>.<name>`: `cacheWhy.hit`, `cacheEvidence.idleGap`, `pricing.unpriced`, `calibration.above`, `entry.call`. */
  code: z.string().min(1),
  params: z.record(z.string(), TextParamSchema).default({}),
});
export type TextCode = z.infer<typeof TextCodeSchema>;
