// Parsers of numeric command-line option values shared by the commands (commander argParsers):
// a bad value is an InvalidArgumentError, which commander reports as a usage error.
import { InvalidArgumentError } from "commander";

/** --seed <n>: an integer, negative allowed. */
export function parseSeed(value: string): number {
  if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError("the seed must be an integer");
  return Number(value);
}

/** A parser of whole numbers (digits only) from `min` to `max`; `message` says what is expected. */
export function countParser(message: string, min = 0, max = Number.POSITIVE_INFINITY): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new InvalidArgumentError(message);
    return Number(value);
  };
}

/** A parser of numbers from 0 to 1; `message` says what is expected. */
export function fractionParser(message: string): (value: string) => number {
  return (value) => {
    const x = Number(value);
    if (value.trim() === "" || !Number.isFinite(x) || x < 0 || x > 1) throw new InvalidArgumentError(message);
    return x;
  };
}
