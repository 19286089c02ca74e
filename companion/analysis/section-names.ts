/**
 * @module The context sections of a Codex 0.169 request (architecture.md, "Request sections") and
 * how text is assigned to them: by item type and role, and by the markers Codex opens its own
 * blocks with. No other prompt text is interpreted.
 */
import type { SectionGroup } from '../protocol/analysis';

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
