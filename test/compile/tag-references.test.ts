// The one `<||tag||>` scanner (compiler/ir/walk.ts) and the text without tags that the IDF index
// reads from outputs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tagReferences, withoutTagReferences } from "../../compiler/ir/walk.js";

describe("tag references", () => {
  it("finds each tag with its trimmed name and span", () => {
    const text = "Copied <||source||> to <||    destination||>.";
    expect(tagReferences(text)).toEqual([
      { name: "source", index: 7, length: 12 },
      { name: "destination", index: 23, length: 21 },
    ]);
  });

  it("replaces every tag by a space and keeps the rest", () => {
    expect(withoutTagReferences("Copied <||source||> to <||destination||>.")).toBe("Copied   to  .");
    expect(withoutTagReferences("no tags | here")).toBe("no tags | here");
  });

  it("leaves no tag behind and keeps the text between tags, whatever the text", () => {
    const piece = fc.string({ maxLength: 12 }).filter((s) => !s.includes("<||") && !s.includes("||>"));
    fc.assert(
      fc.property(fc.array(fc.tuple(piece, fc.stringMatching(/^[a-z_]{1,8}$/)), { maxLength: 5 }), piece, (pairs, last) => {
        const text = pairs.map(([literal, tag]) => `${literal}<||${tag}||>`).join("") + last;
        const plain = withoutTagReferences(text);
        expect(tagReferences(plain)).toEqual([]);
        expect(plain).toBe(pairs.map(([literal]) => `${literal} `).join("") + last);
      }),
      { seed: 11, numRuns: 300 },
    );
  });
});
