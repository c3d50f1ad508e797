// Writing output files atomically: a temp file beside the target, then a rename, so readers
// never see a half-written file and a failure leaves the previous file intact.
import { lstatSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export class NotARegularFileError extends Error {
  constructor(readonly path: string) {
    super(`${path} exists and is not a regular file (a device, directory or link); refusing to replace it`);
    this.name = "NotARegularFileError";
  }
}

export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  // A rename would replace whatever is at `path`: /dev/null, a directory entry, a symlink.
  const existing = lstatOrUndefined(path);
  if (existing && !existing.isFile()) throw new NotARegularFileError(path);
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(temp, data);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
