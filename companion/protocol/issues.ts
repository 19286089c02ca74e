/** @module One wording for schema failures, so the API, the live feed and the CLI report them alike. */
import type { z } from 'zod';

/** `path: message; …` for each issue; `root` names the value itself when an issue has no path. */
export function describeIssues(err: z.ZodError, root: string): string {
  return err.issues.map((i) => `${i.path.join('.') || root}: ${i.message}`).join('; ');
}
