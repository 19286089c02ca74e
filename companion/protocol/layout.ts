/**
 * @module The request layout the panel shows, served by the companion with the record
 * (`GET /api/exchanges/:id` → `layout`): the request's tools wherever Codex put them (namespaces
 * expanded, `additional_tools`, tools nested in the code-mode `exec` description, deferred tools
 * from `tool_search_output`) and its instruction and input entries, each in its context section.
 * Derived from the stored request body whenever it is read, never stored per exchange.
 */
import { z } from 'zod';
import { SectionGroupSchema, ToolKindSchema, ToolPlacementSchema } from './analysis';
import { TextCodeSchema } from './text-code';

const LayoutToolBase = z.object({
  /** The analysis' key (`exec_command`, `collaboration.spawn_agent`, `exec/clock.curr_time`): its token span is `tool:<key>`. */
  key: z.string(),
  /** The key its concept doc is filed under: placement namespaces dropped, renamed namespaces aliased (`agents` → `collaboration`). */
  docKey: z.string(),
  namespace: z.string().nullable(),
  name: z.string(),
  placement: ToolPlacementSchema,
  kind: ToolKindSchema,
  /** `function`, `custom`, `web_search`, … or `nested` for exec declarations. */
  type: z.string(),
  /** What the model reads about the tool (for exec: before its nested sections; for a nested tool: its section). */
  description: z.string().nullable(),
  /** Parameters schema, custom grammar, the TypeScript declaration of a nested tool, or the whole definition of a hosted tool. */
  schema: z.unknown().optional(),
  /** The description of the namespace group the tool is in, shown with each of its tools. */
  namespaceDescription: z.string().nullable(),
  /** Input item that carries the tool, for `additional_tools` and `tool_search_output`. */
  itemIndex: z.number().int().nullable(),
});

export type LayoutTool = z.infer<typeof LayoutToolBase> & { nested: LayoutTool[] };
export const LayoutToolSchema: z.ZodType<LayoutTool> = LayoutToolBase.extend({
  get nested() {
    return z.array(LayoutToolSchema);
  },
});

/** One instruction or input entry: a message part, a tool call or output, a reasoning replay, … */
export const LayoutEntrySchema = z.object({
  /** Position in `input`; -1 for the `instructions` field. */
  index: z.number().int(),
  /** Content part of a message, else null. */
  part: z.number().int().nullable(),
  type: z.string(),
  role: z.string().nullable(),
  /** The context section it is counted under (its token span): `instructions`, `user instructions`, `tool outputs`, … */
  section: z.string(),
  /** Never `tools`: tool catalogs are listed as tools. */
  group: SectionGroupSchema,
  /** English where the companion names the entry (`call exec_command`), else captured content (`user: run echo hi`). */
  label: z.string(),
  /** The label as a code the panel translates, or null when the label is captured content shown as it is. */
  labelCode: TextCodeSchema.nullable().default(null),
  /** Readable text (shown as text, never as HTML), or null when the item is best read as JSON. */
  text: z.string().nullable(),
  /** Bytes the tokenizer cannot see (encrypted reasoning or compaction, images, files). */
  opaqueBytes: z.number().int().nonnegative(),
});
export type LayoutEntry = z.infer<typeof LayoutEntrySchema>;

export const RequestLayoutSchema = z.object({
  tools: z.array(LayoutToolSchema),
  entries: z.array(LayoutEntrySchema),
});
export type RequestLayout = z.infer<typeof RequestLayoutSchema>;
