// The message of the InvalidBundleError a bundle is refused with; fails the test when it loads
// or when anything other than InvalidBundleError is thrown.
import { expect } from "vitest";
import { InvalidBundleError, loadNpc, type LoadOptions } from "../../runtime/index.js";

export async function refusalOf(bytes: Uint8Array, options?: LoadOptions): Promise<string> {
  try {
    await loadNpc(bytes, options);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidBundleError);
    return (error as Error).message;
  }
  throw new Error("the bundle was accepted");
}
