// Keys that come from a dataset are defined on the objects the compiler builds, never assigned:
// assigning "__proto__" would set the object's prototype (handing inherited keys to every reader)
// or be dropped, where JSON.parse makes it an own property like any other key.

/** Sets `key` of `target` as an own, enumerable, writable property, whatever the key. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
