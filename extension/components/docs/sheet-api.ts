/** What views hand the doc sheet and the "?" marks: a way to open a doc, and tools as Codex sent them. */
import type { InjectionKey } from 'vue';

export type OpenDoc = (doc: string) => void;

/** Provided by a view that shows a doc sheet; a "?" mark calls it with its doc name. */
export const OPEN_DOC: InjectionKey<OpenDoc> = Symbol('open-doc');

/** A tool's definition as Codex sent it in the selected exchange, never stored in the repository. */
export interface LiveTool {
  /** The description text (markdown as Codex wrote it), or a nested tool's declaration section. */
  description?: string;
  /** The JSON schema of the parameters, or the freeform grammar. */
  schema?: unknown;
}
