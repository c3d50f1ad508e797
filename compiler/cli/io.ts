// Where a command writes and what it is run against: injected so tests run the CLI in-process.

export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  /** Whether stdout is an interactive terminal (colour, progress). */
  isTTY: boolean;
}

export function processIO(): CliIO {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    cwd: process.cwd(),
    isTTY: Boolean(process.stdout.isTTY),
  };
}
