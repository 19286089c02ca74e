/** Lets a tool's "?" hand the doc sheet the tool as Codex sent it (the sheet API's `OPEN_DOC` carries only a name). */
import type { InjectionKey } from 'vue';
import type { LiveTool } from './sheet-api';

export type OpenToolDoc = (doc: string, liveTool: LiveTool | null) => void;

export const OPEN_TOOL_DOC: InjectionKey<OpenToolDoc> = Symbol('open-tool-doc');
