/** @module CLI errors: one line for the user, a non-zero exit code, never a stack. */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}
