// A function of a string, remembered: each distinct argument computed once per wrapper, at most
// `limit` results kept (past that the memory starts over, so a long-running session's memory stays
// bounded). The learned stage remembers stems and spellings per model (messages share most words);
// the compile passes stem the same words thousands of times, with no limit: their wrapper lives
// as long as the pass.

export function remembered<T>(compute: (text: string) => T, limit = Infinity): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    let value = known.get(text);
    if (value === undefined) {
      if (known.size >= limit) known.clear();
      value = compute(text);
      known.set(text, value);
    }
    return value;
  };
}
