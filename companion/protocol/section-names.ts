/**
 * @module The context sections of a Codex 0.169 request (architecture.md, "Request sections") and
 * how text is assigned to them: by item type and role, and by the markers Codex opens its own
 * blocks with. No other prompt text is interpreted. The extension joins the analysis' token
 * estimates to the entries it shows by section name, so both sides assign sections with these
 * rules.
 */
import type { SectionGroup } from './analysis';

export const SECTION = {
  instructions: 'instructions',
  permissions: 'permissions',
  skills: 'skills',
  userInstructions: 'user instructions',
  environment: 'environment context',
  user: 'conversation: user',
  assistant: 'conversation: assistant',
  developer: 'conversation: developer',
  agentMessages: 'agent messages',
  toolCalls: 'tool calls',
  toolOutputs: 'tool outputs',
  reasoning: 'reasoning',
  compactionSummary: 'compaction summary',
  compactionPrompt: 'compaction prompt',
  outputSchema: 'output schema',
  other: 'other',
} as const;

export const GROUP_OF: Record<string, SectionGroup> = {
  [SECTION.instructions]: 'instructions',
  [SECTION.permissions]: 'instructions',
  [SECTION.skills]: 'instructions',
  [SECTION.outputSchema]: 'other',
  [SECTION.other]: 'other',
};

/** Group of a non-tool section: instructions, other, or input for everything in the conversation. */
export const groupOf = (section: string): SectionGroup => GROUP_OF[section] ?? 'input';

/** Leading developer text: Codex's base instructions, its permissions block, its skills list. */
export function developerSection(text: string): string {
  const t = text.trimStart();
  if (t.startsWith('<skills_instructions>')) return SECTION.skills;
  if (t.startsWith('<permissions instructions>')) return SECTION.permissions;
  return SECTION.instructions;
}

/**
 * User-role text Codex writes itself: AGENTS.md / user instructions, the environment context, the
 * local-compaction summary and prompt, sub-agent notifications. Anything else is the user's.
 */
export function userSection(text: string): string {
  const t = text.trimStart();
  if (t.startsWith('# AGENTS.md instructions for') || t.startsWith('<user_instructions>')) return SECTION.userInstructions;
  if (t.startsWith('<environment_context>')) return SECTION.environment;
  if (t.startsWith('Another language model started to solve this problem')) return SECTION.compactionSummary;
  if (t.startsWith('You are performing a CONTEXT CHECKPOINT COMPACTION')) return SECTION.compactionPrompt;
  if (t.startsWith('<subagent_notification>')) return SECTION.agentMessages;
  return SECTION.user;
}

/** Whether a user text is a compaction summary, which means the history was rewritten. */
export const isCompactionSummary = (text: string): boolean => userSection(text) === SECTION.compactionSummary;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The additional_tools catalogs and developer (or system) messages a request opens with: they
 * stand in for `instructions` in Codex 0.169 (codex-protocol.md §2.2); the conversation follows.
 */
export const isLeadingItem = (item: unknown): boolean =>
  isRecord(item) &&
  (item.type === 'additional_tools' || (item.type === 'message' && (item.role === 'developer' || item.role === 'system')));

/**
 * Placeholder for a content part the tokenizer cannot read (encrypted content, an image, a file)
 * and its size in characters, or null for a readable part.
 */
export function opaquePart(part: Record<string, unknown>): { text: string; bytes: number } | null {
  if (typeof part.encrypted_content === 'string') return { text: '[encrypted]', bytes: part.encrypted_content.length };
  if (typeof part.image_url === 'string') return { text: '[image]', bytes: part.image_url.length };
  if (part.type === 'input_file') return { text: '[file]', bytes: JSON.stringify(part).length };
  return null;
}
