/** The error a tool (or the workspace under it) throws for a call the caller can fix. */

/** A tool call that failed in a way the caller can fix (bad arguments, unknown target). */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
