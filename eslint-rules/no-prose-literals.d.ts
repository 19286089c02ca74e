import type { Rule } from 'eslint';

declare const rule: Rule.RuleModule;
export default rule;
export function looksLikeProse(text: string): boolean;
