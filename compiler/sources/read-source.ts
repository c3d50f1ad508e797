// Reading one source file as text: size limit, strict UTF-8, every failure a located diagnostic.
import { readFileSync, statSync } from "node:fs";
import { fileStart, type DiagnosticBag } from "../diagnostics.js";
import { NDF_CODES } from "./ndf/codes.js";
import { positionAt } from "./location.js";

/** Larger sources are refused: no NPC needs them, and reading them would stall a pre-commit hook. */
export const MAX_SOURCE_BYTES = 16 * 1024 * 1024;

export interface SourceText {
  text: string;
  bytes: Uint8Array;
}

export function readSource(file: string, bag: DiagnosticBag): SourceText | undefined {
  const start = fileStart(file);
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    bag.error(NDF_CODES.ioError, `cannot read file: ${systemMessage(error)}`, start);
    return undefined;
  }
  if (size > MAX_SOURCE_BYTES) {
    const mb = (size / (1024 * 1024)).toFixed(1);
    bag.error(NDF_CODES.ioError, `file is ${mb} MB; source files are limited to ${MAX_SOURCE_BYTES / (1024 * 1024)} MB (split it)`, start);
    return undefined;
  }
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    bag.error(NDF_CODES.ioError, `cannot read file: ${systemMessage(error)}`, start);
    return undefined;
  }
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    return { text, bytes };
  } catch {
    const lossy = new TextDecoder("utf-8").decode(bytes);
    const offset = lossy.indexOf("\uFFFD");
    const { line, column } = positionAt(lossy, Math.max(offset, 0));
    bag.error(NDF_CODES.ioError, "file is not valid UTF-8 (save it as UTF-8)", { file, line, column, offset: Math.max(offset, 0) });
    return undefined;
  }
}

export function systemMessage(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e.code === "ENOENT") return "no such file or directory";
  if (e.code === "EACCES") return "permission denied";
  if (e.code === "EISDIR") return "is a directory";
  return e.message ?? String(error);
}
