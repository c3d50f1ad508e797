// The bundle must not depend on the order in which the file system lists a directory. Real file
// systems mostly list in name or creation order, which would hide a missing sort, so here the
// directory lister itself is replaced by one that returns each directory's entries shuffled. (The
// compiler sorts at more than one level; this proves the end result, whichever sort a change drops.)
import * as fs from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";

/** Permutes the listing of every directory by `seed` (a deterministic shuffle), or leaves it alone. */
const listing = vi.hoisted(() => ({ seed: null as number | null }));

vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  const readdirSync = ((...args: Parameters<typeof real.readdirSync>) => {
    const names = real.readdirSync(...args) as unknown[];
    if (listing.seed === null) return names;
    let state = listing.seed >>> 0 || 1;
    const next = () => ((state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32);
    for (let i = names.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [names[i], names[j]] = [names[j], names[i]];
    }
    return names;
  }) as typeof real.readdirSync;
  return { ...real, default: { ...real, readdirSync }, readdirSync };
});

const datasets = resolve(import.meta.dirname, "../../datasets");

function bundleOf(dir: string, seed: number | null): Buffer {
  listing.seed = seed;
  try {
    return Buffer.from(compileNpc(lintSources([dir]).ir).bytes);
  } finally {
    listing.seed = null;
  }
}

describe("bundles do not depend on the order a directory is listed in", () => {
  it("the lister really is shuffled (else this file proves nothing)", () => {
    listing.seed = 7;
    try {
      const listed = fs.readdirSync(resolve(datasets, "termy/dataset"));
      expect(listed.length).toBeGreaterThan(5);
      expect(listed).not.toEqual([...listed].sort());
    } finally {
      listing.seed = null;
    }
  });

  // datasets/termy has 30 files in nested folders (entries, templates, vocabulary, types);
  // datasets/home-ndf has lists and vocabulary files beside its entries.
  for (const name of ["termy", "home-ndf"]) {
    it(`datasets/${name}: any listing order gives the same bytes`, () => {
      const dir = resolve(datasets, name);
      const expected = bundleOf(dir, null);
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
          expect(bundleOf(dir, seed).equals(expected)).toBe(true);
        }),
        { numRuns: 2 },
      );
    });
  }
});
