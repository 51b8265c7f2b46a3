/** The error every layer throws for input the caller must fix. */

/**
 * A bad input from whoever drives gortex (a flag, a path, a config value): the CLI prints the
 * message alone and exits with code 2; the daemon answers it as `invalid_argument`.
 */
export class UsageError extends Error {
  override name = 'UsageError';
  readonly exitCode = 2;
}
