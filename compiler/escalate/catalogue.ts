// What the model may choose from: every top-level intent of a bundle with a description, and the
// slots its templates capture with their types. Slots come from the template automaton: every
// walk from the root to an intent's accept gives one set of slots; a slot on every walk is
// required, one on some is optional. Context children are left out: they answer only while
// their parent is active, which a model cannot see.
import type { BundlePayload, Segments } from "../../runtime/bundle/bundle-types.js";
import { TypeMatcher } from "../../runtime/text/regex-vm.js";
import { stringsOf } from "../../runtime/bundle/string-table.js";
import { inlinedAutomaton } from "../../runtime/bundle/inlined-automaton.js";

export interface SlotCard {
  name: string;
  /** The types.json type, or null for a free string. */
  type: string | null;
  /** The type's program, as the template stage runs it (null for a free string). */
  matcher: TypeMatcher | null;
  required: boolean;
}

export interface IntentCard {
  id: string;
  /** Index in the bundle's intents. */
  index: number;
  description: string;
  slots: SlotCard[];
  destructive: boolean;
  /** A normalized input of the intent in the exact table: a slot-less answer can be learned as another. */
  exactKey: string | null;
}

/** Root-to-accept walks explored before giving up on telling required slots from optional ones. */
const MAX_WALKS = 20_000;

interface SlotEdge {
  name: string;
  type: number | null;
}

export function intentCatalogue(payload: BundlePayload): IntentCard[] {
  const walks = slotWalks(payload);
  const exactKeys = new Map<number, string>();
  stringsOf(payload.exact.keys).forEach((key, i) => {
    const target = payload.exact.targets[i]!;
    if (!exactKeys.has(target)) exactKeys.set(target, key);
  });
  return payload.intents.flatMap((intent, index) => {
    if (intent.parent !== null) return [];
    const sets = walks?.get(index) ?? [];
    const types = new Map<string, number | null>();
    for (const set of sets) for (const edge of set) if (!types.has(edge.name)) types.set(edge.name, edge.type);
    const slots = [...types].map(([name, type]): SlotCard => ({
      name,
      type: type === null ? null : payload.types[type]!.name,
      matcher: type === null ? null : new TypeMatcher(payload.types[type]!),
      // Without the walks (too many), no slot is required and the answer's slots are only type-checked.
      required: walks !== null && sets.every((set) => set.some((edge) => edge.name === name)),
    }));
    const description = intent.description ? segmentsText(intent.description) : intent.example !== null ? `as in "${intent.example}"` : intent.id;
    return [{ id: intent.id, index, description, slots, destructive: intent.destructive, exactKey: exactKeys.get(index) ?? null }];
  });
}

/** Per intent, the slot edges of each root-to-accept walk; null past MAX_WALKS. */
function slotWalks(payload: BundlePayload): Map<number, SlotEdge[][]> | null {
  const out = new Map<number, SlotEdge[][]>();
  const states = inlinedAutomaton(payload.automaton);
  if (states.length === 0) return out;
  let walks = 0;
  const stack: { state: number; slots: SlotEdge[] }[] = [{ state: 0, slots: [] }];
  while (stack.length > 0) {
    const { state, slots } = stack.pop()!;
    const node = states[state]!;
    for (const [intent] of node.accept) {
      if (++walks > MAX_WALKS) return null;
      const list = out.get(intent);
      if (list) list.push(slots);
      else out.set(intent, [slots]);
    }
    for (const [, child] of node.vocab) stack.push({ state: child, slots });
    for (const child of node.skip) stack.push({ state: child, slots });
    for (const [type, name, child] of node.typed) stack.push({ state: child, slots: [...slots, { name, type }] });
    for (const [name, child] of node.strings) stack.push({ state: child, slots: [...slots, { name, type: null }] });
    if (stack.length > MAX_WALKS) return null;
  }
  return out;
}

/** A pre-parsed template as text, its tags shown as <||tag||>. */
function segmentsText(segments: Segments): string {
  return segments.map((piece, i) => (i % 2 === 0 ? piece : `<||${piece}||>`)).join("").trim();
}
