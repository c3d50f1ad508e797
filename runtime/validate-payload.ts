// Shape validation of a decoded bundle payload: a bundle with a valid hash can still have been
// written by a buggy or hostile tool, and the runtime indexes arrays with these numbers.
// Returns the first problem as "path: what is wrong", or null.

class ShapeError extends Error {}

function fail(path: string, what: string): never {
  throw new ShapeError(`${path}: ${what}`);
}

function obj(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value) || value instanceof Uint8Array) {
    fail(path, "expected an object");
  }
  return value as Record<string, unknown>;
}

function arr(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) fail(path, "expected an array");
  return value;
}

function str(value: unknown, path: string): string {
  if (typeof value !== "string") fail(path, "expected a string");
  return value;
}

function num(value: unknown, path: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) fail(path, "expected a finite number");
  return value;
}

function index(value: unknown, path: string, length: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value >= length) {
    fail(path, `expected an index below ${length}`);
  }
  return value;
}

// The element loops below build a path string only for the element that fails: validation runs
// on every load, over tens of thousands of numbers.
function strings(value: unknown, path: string): string[] {
  const list = arr(value, path);
  for (let i = 0; i < list.length; i++) if (typeof list[i] !== "string") str(list[i], `${path}[${i}]`);
  return list as string[];
}

function isIndex(value: unknown, length: number): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value < length;
}

function indices(value: unknown, path: string, length: number): number[] {
  const list = arr(value, path);
  for (let i = 0; i < list.length; i++) if (!isIndex(list[i], length)) index(list[i], `${path}[${i}]`, length);
  return list as number[];
}

/** A list of index lists (postings, tags per word, words per input). */
function indexLists(value: unknown, path: string, length: number): void {
  const list = arr(value, path);
  for (let i = 0; i < list.length; i++) {
    const inner = list[i];
    if (!Array.isArray(inner)) arr(inner, `${path}[${i}]`);
    const items = inner as unknown[];
    for (let j = 0; j < items.length; j++) if (!isIndex(items[j], length)) index(items[j], `${path}[${i}][${j}]`, length);
  }
}

function numbers(value: unknown, path: string): number[] {
  const list = arr(value, path);
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (typeof v !== "number" || !Number.isFinite(v)) num(v, `${path}[${i}]`);
  }
  return list as number[];
}

function bytes(value: unknown, path: string): Uint8Array {
  if (!(value instanceof Uint8Array) || value.length % 4 !== 0) fail(path, "expected bytes (u32 array)");
  return value;
}

function nullable<T>(value: unknown, path: string, check: (v: unknown, p: string) => T): T | null {
  return value === null ? null : check(value, path);
}

function toolTree(value: unknown, path: string, depth: number): void {
  if (depth > 64) fail(path, "tool nesting too deep");
  if (Array.isArray(value)) {
    strings(value, path);
    return;
  }
  const o = obj(value, path);
  if ("a" in o) arr(o.a, `${path}.a`).forEach((item, i) => toolTree(item, `${path}.a[${i}]`, depth + 1));
  else if ("o" in o) {
    arr(o.o, `${path}.o`).forEach((entry, i) => {
      const pair = arr(entry, `${path}.o[${i}]`);
      str(pair[0], `${path}.o[${i}][0]`);
      toolTree(pair[1], `${path}.o[${i}][1]`, depth + 1);
    });
  } else if ("v" in o) {
    const v = o.v;
    if (v !== null && typeof v !== "number" && typeof v !== "boolean") fail(`${path}.v`, "expected a scalar");
  } else fail(path, "unknown tool value");
}

function exactTable(value: unknown, path: string, intents: number): void {
  const t = obj(value, path);
  const keys = strings(t.keys, `${path}.keys`);
  const targets = indices(t.targets, `${path}.targets`, intents);
  if (keys.length !== targets.length) fail(path, "keys and targets differ in length");
}

function validate(payload: unknown): void {
  const p = obj(payload, "payload");
  str(p.name, "name");
  str(p.compilerVersion, "compilerVersion");
  str(p.sourceHash, "sourceHash");
  const counts = obj(p.counts, "counts");
  for (const [key, value] of Object.entries(counts)) num(value, `counts.${key}`);
  const config = obj(p.config, "config");
  str(config.npcName, "config.npcName");
  nullable(config.creator, "config.creator", str);
  for (const key of ["sentenceThreshold", "wordThreshold", "margin", "synonymContribution", "suggestions", "maxMessageChars"]) {
    num(config[key], `config.${key}`);
  }
  arr(config.connectives, "config.connectives").forEach((words, i) => strings(words, `config.connectives[${i}]`));

  const intents = arr(p.intents, "intents");
  const automaton = arr(p.automaton, "automaton");
  const types = arr(p.types, "types");
  const vocab = obj(p.vocab, "vocab");
  const tagCount = strings(vocab.tags, "vocab.tags").length;
  intents.forEach((value, i) => {
    const at = `intents[${i}]`;
    const intent = obj(value, at);
    str(intent.id, `${at}.id`);
    nullable(intent.category, `${at}.category`, str);
    arr(intent.outputs, `${at}.outputs`).forEach((s, j) => strings(s, `${at}.outputs[${j}]`));
    arr(intent.thinking, `${at}.thinking`).forEach((s, j) => strings(s, `${at}.thinking[${j}]`));
    nullable(intent.description, `${at}.description`, strings);
    arr(intent.tools, `${at}.tools`).forEach((t, j) => toolTree(t, `${at}.tools[${j}]`, 0));
    if (intent.permission !== "ask" && intent.permission !== "yolo" && intent.permission !== "auto") {
      fail(`${at}.permission`, "expected ask, yolo or auto");
    }
    if (typeof intent.destructive !== "boolean") fail(`${at}.destructive`, "expected a boolean");
    nullable(intent.parent, `${at}.parent`, (v, q) => index(v, q, intents.length));
    nullable(intent.context, `${at}.context`, (v, q) => indices(v, q, intents.length));
    arr(intent.extra, `${at}.extra`).forEach((entry, j) => {
      const pair = arr(entry, `${at}.extra[${j}]`);
      str(pair[0], `${at}.extra[${j}][0]`);
      arr(pair[1], `${at}.extra[${j}][1]`).forEach((s, k) => strings(s, `${at}.extra[${j}][1][${k}]`));
    });
    nullable(intent.example, `${at}.example`, str);
  });

  exactTable(p.exact, "exact", intents.length);
  arr(p.contextExact, "contextExact").forEach((value, i) => {
    exactTable(value, `contextExact[${i}]`, intents.length);
    index(obj(value, `contextExact[${i}]`).parent, `contextExact[${i}].parent`, intents.length);
  });

  const inputs = obj(p.inputs, "inputs");
  const inputIntents = indices(inputs.intent, "inputs.intent", intents.length);

  const lexicon = obj(p.lexicon, "lexicon");
  const words = strings(lexicon.words, "lexicon.words");
  if (arr(lexicon.tags, "lexicon.tags").length !== words.length) fail("lexicon.tags", "length differs from words");
  indexLists(lexicon.tags, "lexicon.tags", tagCount);

  const matching = obj(p.matching, "matching");
  const stems = strings(matching.stems, "matching.stems");
  if (indices(matching.wordStem, "matching.wordStem", stems.length).length !== words.length) {
    fail("matching.wordStem", "length differs from lexicon.words");
  }
  for (const key of ["weight", "postings", "concepts"]) {
    if (arr(matching[key], `matching.${key}`).length !== stems.length) fail(`matching.${key}`, "length differs from stems");
  }
  numbers(matching.weight, "matching.weight");
  indexLists(matching.postings, "matching.postings", inputIntents.length);
  if (arr(matching.inputStems, "matching.inputStems").length !== inputIntents.length) fail("matching.inputStems", "length differs from inputs.intent");
  indexLists(matching.inputStems, "matching.inputStems", stems.length);
  if (arr(matching.inputWords, "matching.inputWords").length !== inputIntents.length) fail("matching.inputWords", "length differs from inputs.intent");
  indexLists(matching.inputWords, "matching.inputWords", words.length);
  if (numbers(matching.inputWeight, "matching.inputWeight").length !== inputIntents.length) {
    fail("matching.inputWeight", "length differs from inputs.intent");
  }
  const conceptCount = numbers(matching.conceptWeight, "matching.conceptWeight").length;
  indexLists(matching.concepts, "matching.concepts", conceptCount);
  num(matching.unknownWeight, "matching.unknownWeight");
  index(matching.firstDescription, "matching.firstDescription", inputIntents.length + 1);

  arr(vocab.phrases, "vocab.phrases").forEach((entry, i) => {
    const pair = arr(entry, `vocab.phrases[${i}]`);
    index(pair[0], `vocab.phrases[${i}][0]`, tagCount);
    strings(pair[1], `vocab.phrases[${i}][1]`);
  });

  const fuzzy = obj(p.fuzzy, "fuzzy");
  const hashes = bytes(fuzzy.hashes, "fuzzy.hashes");
  const fuzzyWords = bytes(fuzzy.words, "fuzzy.words");
  if (hashes.length !== fuzzyWords.length) fail("fuzzy", "hashes and words differ in length");

  types.forEach((value, i) => {
    const at = `types[${i}]`;
    const t = obj(value, at);
    str(t.name, `${at}.name`);
    nullable(t.unusable, `${at}.unusable`, str);
    const classes = arr(t.classes, `${at}.classes`);
    classes.forEach((c, j) => numbers(c, `${at}.classes[${j}]`));
    const ops = arr(t.ops, `${at}.ops`);
    if (ops.length % 3 !== 0) fail(`${at}.ops`, "expected opcode triples");
    const opCount = ops.length / 3;
    for (let k = 0; k < ops.length; k += 3) {
      const op = ops[k];
      const where = `${at}.ops[${k}]`;
      if (op === 0) {
        index(ops[k + 1], where, classes.length);
        index(ops[k + 2], where, opCount);
      } else if (op === 1) {
        index(ops[k + 1], where, opCount);
        index(ops[k + 2], where, opCount);
      } else if (op === 2 || op === 4 || op === 5 || op === 6) index(ops[k + 1], where, opCount);
      else if (op !== 3) fail(where, "unknown opcode");
    }
  });

  automaton.forEach((value, i) => {
    const at = `automaton[${i}]`;
    const s = obj(value, at);
    arr(s.vocab, `${at}.vocab`).forEach((e, j) => {
      const edge = arr(e, `${at}.vocab[${j}]`);
      indices(edge[0], `${at}.vocab[${j}][0]`, tagCount);
      index(edge[1], `${at}.vocab[${j}][1]`, automaton.length);
    });
    arr(s.typed, `${at}.typed`).forEach((e, j) => {
      const edge = arr(e, `${at}.typed[${j}]`);
      index(edge[0], `${at}.typed[${j}][0]`, types.length);
      str(edge[1], `${at}.typed[${j}][1]`);
      index(edge[2], `${at}.typed[${j}][2]`, automaton.length);
    });
    arr(s.strings, `${at}.strings`).forEach((e, j) => {
      const edge = arr(e, `${at}.strings[${j}]`);
      str(edge[0], `${at}.strings[${j}][0]`);
      index(edge[1], `${at}.strings[${j}][1]`, automaton.length);
    });
    // Skip edges point forward: the matcher relies on it to visit states in one ascending pass.
    indices(s.skip, `${at}.skip`, automaton.length).forEach((child, j) => {
      if (child <= i) fail(`${at}.skip[${j}]`, "skip edges must point to a later state");
    });
    arr(s.accept, `${at}.accept`).forEach((e, j) => {
      const pair = arr(e, `${at}.accept[${j}]`);
      index(pair[0], `${at}.accept[${j}][0]`, intents.length);
      num(pair[1], `${at}.accept[${j}][1]`);
    });
  });
  if (automaton.length === 0) fail("automaton", "needs at least the start state");

  const sanitizer = obj(p.sanitizer, "sanitizer");
  arr(sanitizer.phrases, "sanitizer.phrases").forEach((entry, i) => {
    const pair = arr(entry, `sanitizer.phrases[${i}]`);
    strings(pair[0], `sanitizer.phrases[${i}][0]`);
    index(pair[1], `sanitizer.phrases[${i}][1]`, 5);
  });
  strings(sanitizer.stopWords, "sanitizer.stopWords");
  arr(p.wordLists, "wordLists").forEach((entry, i) => {
    const pair = arr(entry, `wordLists[${i}]`);
    str(pair[0], `wordLists[${i}][0]`);
    arr(pair[1], `wordLists[${i}][1]`).forEach((s, j) => strings(s, `wordLists[${i}][1][${j}]`));
  });
}

/** The first shape problem of `payload`, or null when it is a well-formed BundlePayload. */
export function validatePayload(payload: unknown): string | null {
  try {
    validate(payload);
    return null;
  } catch (error) {
    if (error instanceof ShapeError) return error.message;
    return `unreadable value (${error instanceof Error ? error.message : String(error)})`;
  }
}
