// The intents of a loaded bundle (format 6.0). What the matchers read of every intent on every
// message (id, permission, destructive, parent) and what a rejection's suggestions show of an
// intent (category, example: format 11.0) come from sections checked at load. The rest,
// most of a bundle's values (outputs, thinking, tools, context, custom keys…), is one
// plain-msgpack record per intent, decoded and checked the first time it is read (an answer, a
// suggestion, an inspection) and then kept: a load walks none of it.
//
// The contract that follows: loadNpc checks every table it reads at load; a malformed record is
// found when it is first read, and reading it throws InvalidBundleError naming the intent (the
// session answers that with a rejection saying so: conversation/session.ts). `verify: "full"`
// reads every record at load instead (verifyIntents).
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { BundleIntent, BundleIntents, IntentRecord, Permission } from "./bundle-types.js";
import { PERMISSIONS, RECORD_FIELDS } from "./bundle-types.js";
import { InvalidBundleError } from "./invalid-bundle.js";
import { decodeChecked } from "./plain-msgpack.js";
import { validateIntentRecord } from "./validate-payload.js";

const NO_SECTIONS = new Uint8Array(0);

/**
 * An intent whose record is read on first use; it reads as a plain BundleIntent (its head's fields
 * are getters of the stored sections, its record's fields getters of the record, below). A load
 * makes one small object per intent and no string: an id is decoded when first read.
 */
interface LazyIntent extends Readonly<IntentRecord> {}
class LazyIntent implements BundleIntent {
  private kept: IntentRecord | null = null;

  constructor(
    private readonly stored: BundleIntents,
    private readonly index: number,
  ) {}

  get id(): string {
    return this.stored.ids.at(this.index);
  }

  get permission(): Permission {
    return PERMISSIONS[this.stored.permission[this.index]!]!;
  }

  get destructive(): boolean {
    return this.stored.destructive[this.index] === 1;
  }

  get parent(): number | null {
    const parent = this.stored.parent[this.index]!;
    return parent === this.stored.ids.length ? null : parent;
  }

  get category(): string | null {
    return this.label(this.stored.category);
  }

  get example(): string | null {
    return this.label(this.stored.example);
  }

  /** The label `at` gives this intent, or null (the labels' length: none). */
  private label(at: Uint32Array): string | null {
    const { labels } = this.stored;
    return at[this.index] === labels.length ? null : labels.at(at[this.index]!);
  }

  /** The bytes of every intent's record, as stored (mayRenderShell). */
  static recordBytes(intent: LazyIntent): Uint8Array {
    return intent.stored.records.items;
  }

  /** The record, decoded and checked once; throws InvalidBundleError naming the intent. */
  record(): IntentRecord {
    return (this.kept ??= readRecord(this.stored, this.index, this.id));
  }
}
// One getter per record field, written once rather than seven times.
for (const field of RECORD_FIELDS) {
  Object.defineProperty(LazyIntent.prototype, field, {
    get(this: LazyIntent) {
      return this.record()[field];
    },
  });
}

const readRecord = (function readRecord({ records: { starts, items }, ids }: BundleIntents, index: number, id: string): IntentRecord {
  const bytes = items.subarray(starts[index], starts[index + 1]);
  const shapeProblem = (record: unknown, budget: number) => validateIntentRecord(record, budget, ids.length);
  return decodeChecked(bytes, NO_SECTIONS, shapeProblem, (why) => new InvalidBundleError(`intent ${JSON.stringify(id)} (${index}): its record ${why}`)) as IntentRecord;
});

/** The intents of stored ones (validated by validatePayload): heads read from their sections, records on first read. */
export function readIntents(stored: BundleIntents): BundleIntent[] {
  const intents: BundleIntent[] = [];
  for (let i = 0; i < stored.ids.length; i++) intents.push(new LazyIntent(stored, i));
  return intents;
}

/** The bytes of the key "sh" after its length (fixstr 2, or the last byte of a str 8/16/32 length: 2). */
const isShellKeyAt = (bytes: Uint8Array, h: number): boolean => bytes[h - 1] === 0x73 && (bytes[h - 2] === 0xa2 || bytes[h - 2] === 2);

/**
 * Whether some intent may render a shell command ({sh: …}, runtime/render/shell-render.ts), decided
 * without reading a record: the records' bytes hold the key "sh" however msgpack writes it (a
 * string's bytes may look like one too: then the renderer is loaded for nothing). Stored intents (a
 * load decides from them) or decoded ones; intents made by hand (not read from bytes): any tool.
 */
export function mayRenderShell(intents: readonly BundleIntent[] | BundleIntents): boolean {
  let items: Uint8Array;
  if (!Array.isArray(intents)) items = (intents as BundleIntents).records.items;
  else if (intents[0] instanceof LazyIntent) items = LazyIntent.recordBytes(intents[0]);
  else return intents.some((intent) => intent.tools.length > 0);
  // A native search for the key's last byte, the rest read where it is found.
  for (let h = items.indexOf(0x68, 2); h !== -1; h = items.indexOf(0x68, h + 1)) if (isShellKeyAt(items, h)) return true;
  return false;
}

/** Reads every record now (`verify: "full"`): throws InvalidBundleError at the first malformed one. */
export function verifyIntents(intents: readonly BundleIntent[]): void {
  for (const intent of intents) if (intent instanceof LazyIntent) intent.record();
}
