// Where a command writes and what it is run against: injected so tests run the CLI in-process.
import type { Command } from "commander";

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

/** A command registers itself on the program; it sets `exitCode.value` when it does not exit 0. */
export type RegisterCommand = (program: Command, io: CliIO, exitCode: { value: number }) => void;
