// A function of a string, remembered: each distinct argument computed once per wrapper. For the
// compile passes that stem or split the same words thousands of times (an NPC's inputs share most
// of their words); the wrapper lives as long as its pass, so nothing outlives a build.

export function remembered<T>(compute: (text: string) => T): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    let value = known.get(text);
    if (value === undefined) {
      value = compute(text);
      known.set(text, value);
    }
    return value;
  };
}
