// The one error a bundle is refused with. Its own module so that the loader (format.ts), the
// intent records read after the load (intent-records.ts) and the session that answers them share
// it without importing each other.

/** A bundle that cannot be loaded, or an intent record of it that cannot be read: the message says why. */
export class InvalidBundleError extends Error {
  constructor(message: string) {
    super(`invalid .npc bundle: ${message}`);
    this.name = "InvalidBundleError";
  }
}
