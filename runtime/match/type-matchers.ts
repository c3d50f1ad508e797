// A model's type regexes ready to test tokens (text/regex-vm.ts), built on first use. Only the
// template matcher (and explain) test types, so the VM rides in the template chunk
// (runtime/stages.ts), not the core: NpcModel does not build them.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { NpcModel } from "../bundle/model.js";
import { TypeMatcher } from "../text/regex-vm.js";

const built = new WeakMap<NpcModel, TypeMatcher[]>();

/** Per type of the bundle, its matcher (one set per model: matching is synchronous, so its sessions share them). */
export const typeMatchers = (function typeMatchers(model: NpcModel): readonly TypeMatcher[] {
  let matchers = built.get(model);
  if (matchers === undefined) built.set(model, (matchers = model.payload.types.map((program) => new TypeMatcher(program))));
  return matchers;
});
