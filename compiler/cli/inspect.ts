// `ndfc inspect`: what a bundle contains (name, versions, source hash, counts, the learned model, bytes per section).
import { FORMAT_MAJOR, readHeader } from "../../runtime/index.js";
import { sectionSizes } from "../../runtime/bundle/encode.js";
import type { BundlePayload } from "../../runtime/bundle/bundle-types.js";
import { loadBundleFile } from "./read-bundle.js";
import type { RegisterCommand } from "./io.js";

export interface InspectReport {
  name: string;
  format: string;
  compilerVersion: string;
  sourceHash: string;
  bytes: number;
  counts: BundlePayload["counts"];
  config: BundlePayload["config"];
  /** Encoded size of each payload section, in bytes. */
  sections: Record<string, number>;
  /** The learned stage's model (null: left out, config.learnedNote says why). */
  learned: { classes: number; features: number; weights: number; threshold: number } | null;
}

export function inspectPayload(payload: BundlePayload, bytes: Uint8Array): InspectReport {
  const header = readHeader(bytes);
  return {
    name: payload.name,
    format: `${header.major}.${header.minor}`,
    compilerVersion: payload.compilerVersion,
    sourceHash: payload.sourceHash,
    bytes: bytes.length,
    counts: payload.counts,
    config: payload.config,
    sections: sectionSizes(payload),
    learned: payload.learned
      ? { classes: payload.learned.bias.length, features: payload.learned.idf.length, weights: payload.learned.weights.length, threshold: payload.config.learnedThreshold }
      : null,
  };
}

function formatReport(report: InspectReport): string {
  const lines = [
    `name             ${report.name}`,
    `format           ${report.format} (this ndfc reads ${FORMAT_MAJOR}.x)`,
    `compiler         ${report.compilerVersion}`,
    `source hash      ${report.sourceHash}`,
    `bytes            ${report.bytes}`,
    "counts",
    ...Object.entries(report.counts).map(([key, value]) => `  ${key.padEnd(16)} ${value}`),
    report.learned
      ? `learned          ${report.learned.classes} classes (with none of these), ${report.learned.features} features, ${report.learned.weights} int8 weights, threshold ${report.learned.threshold} (margin over the runner-up); ${report.config.learnedNote}`
      : `learned          none (lexical matching only): ${report.config.learnedNote}`,
    "sections (bytes)",
    ...Object.entries(report.sections).map(([key, value]) => `  ${key.padEnd(16)} ${value}`),
  ];
  return lines.join("\n") + "\n";
}

export const registerInspect: RegisterCommand = (program, io) => {
  program
    .command("inspect")
    .description("show what a .npc bundle contains: name, versions, source hash, counts, section sizes")
    .argument("<bundle>", "a .npc file")
    .option("--json", "print the report as JSON")
    .action(async (file: string, options: { json?: boolean }) => {
      const { npc, bytes } = await loadBundleFile(file, io.cwd, { verify: "full" });
      const report = inspectPayload(npc.payload, bytes);
      io.stdout(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    });
};
