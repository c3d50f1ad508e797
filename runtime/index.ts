// ndfc/runtime: load a compiled `.npc` bundle and answer messages with it.
//   const npc = await loadNpc(bytes);
//   const session = npc.session({ seed: 1, metadata: { username: "ada" } });
//   const answer = session.process("list files");

import type { BundleCounts, BundlePayload } from "./bundle/bundle-types.js";
import { decodeBundle, InvalidBundleError, type Verify } from "./bundle/format.js";
import type { LearnedIndex } from "./match/match-learned.js";
import { learnedIndexFor, NpcModel } from "./bundle/model.js";
import { messageLimit, NpcSession, type SessionOptions } from "./conversation/session.js";
import { loadStages, requireStages } from "./stages.js";

export class Npc {
  private readonly model: NpcModel;

  /** `learned`: learnedIndexFor(payload), required when the bundle has a learned stage (loadNpc does both). */
  constructor(payload: BundlePayload, learned: LearnedIndex | null = null) {
    if (payload.learned && learned === null) throw new Error("this bundle has a learned stage: load it with loadNpc, or pass learnedIndexFor(payload)");
    requireStages(payload);
    this.model = new NpcModel(payload, learned);
  }

  get name(): string {
    return this.model.payload.name;
  }

  get counts(): BundleCounts {
    return this.model.payload.counts;
  }

  /** Longest message a session reads: the bundle's limit, capped by the runtime (session.ts). */
  get maxMessageChars(): number {
    return messageLimit(this.model.payload.config.maxMessageChars);
  }

  /** The decoded payload (read-only use: inspection, tooling). */
  get payload(): BundlePayload {
    return this.model.payload;
  }

  session(options: SessionOptions = {}): NpcSession {
    return new NpcSession(this.model, options);
  }
}

export interface LoadOptions {
  /**
   * "lazy" (default): the load checks header, hash, sections and every table it reads; an
   * intent's record (texts, tools, context…) is checked when first read, and a malformed one
   * answers as a rejection whose notice names the intent. "full": every record is checked now.
   */
  verify?: Verify;
}

/** Loads bundle bytes. Rejects with InvalidBundleError (never another error) when they are not a valid bundle. */
export async function loadNpc(bytes: Uint8Array, { verify = "lazy" }: LoadOptions = {}): Promise<Npc> {
  // Set by decodeBundle's prepare, which a decode that returns has called.
  let learned!: Promise<LearnedIndex | null>;
  // The chunks this bundle needs load while its hash is checked and its payload read (decodeBundle's prepare).
  const payload = await decodeBundle(bytes, verify, (stored) => {
    learned = learnedIndexFor(stored);
    // A learned stage that fails is reported below, where its error becomes an InvalidBundleError.
    return Promise.all([learned.catch(() => null), loadStages(stored)]);
  });
  try {
    return new Npc(payload, await learned);
  } catch (error) {
    if (error instanceof InvalidBundleError) throw error;
    throw new InvalidBundleError(`payload could not be indexed (${error instanceof Error ? error.message : String(error)})`);
  }
}

export { InvalidBundleError, readHeader, FORMAT_MAJOR, FORMAT_MINOR } from "./bundle/format.js";
export type { Verify } from "./bundle/format.js";
export { NpcSession } from "./conversation/session.js";
export { learnedIndexFor } from "./bundle/model.js";
export { loadStages } from "./stages.js";
export type { SessionOptions, SessionMetadata, ProcessOptions } from "./conversation/session.js";
export { emojiFor } from "./render/emoji.js";
export type { Explainer } from "./explain.js";
export type * from "./response.js";
export type * from "./bundle/bundle-types.js";
