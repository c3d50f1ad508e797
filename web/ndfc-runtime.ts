// ndfc/runtime as one browser ES module (web-assets/ndfc-runtime.js): the core, the explain trace
// and the bundle's header reader, with msgpackr inlined, so an exported site needs no network beyond its
// own files. Built by scripts/build-web-assets.ts; the core's size budget is measured elsewhere
// (bench/runtime-size.ts), this file is the convenience of one import.
export { loadNpc, readHeader, Npc, NpcSession, InvalidBundleError } from "../runtime/index.js";
export type { NpcResponse, SessionOptions, ProcessOptions } from "../runtime/index.js";
export { explain } from "../runtime/explain.js";
