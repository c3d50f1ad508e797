// Errors a command raises for the user's mistakes: printed as one line, never as a stack trace.

export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_USAGE,
  ) {
    super(message);
    this.name = "CliError";
  }
}
