// The text form of an evaluation report (`ndfc eval` without --json): the rates first, then short
// lists (the intents with the lowest F1, the most confused pairs, the failures), each saying how
// many more there are and which option shows them; the confidence histogram is always whole.
import type { CrossValidationSummary } from "./cross-validate.js";
import type { ConfidenceBin, IntentMetrics } from "./metrics.js";
import type { EvalReport, Rate } from "./score.js";
import { formatTable, truncate } from "./table.js";

export interface ReportLimits {
  failures: number;
  intents: number;
  confusions: number;
}

const NAME_WIDTH = 40;
const EXAMPLE_WIDTH = 60;
const BAR_WIDTH = 40;

function pct(x: number): string {
  return `${(x * 100).toFixed(1)} %`;
}

function ratio(r: Rate): string {
  return `${pct(r.accuracy)} (${r.correct}/${r.cases})`;
}

function heading(title: string, shown: number, total: number, what: string, option: string): string {
  return shown < total ? `${title} (${shown} of ${total} ${what}; ${option} N for more):` : `${title} (${total} ${what}):`;
}

function crossValidationLines(cv: CrossValidationSummary): string[] {
  const { intents, inputs, followUpInputs } = cv.skipped;
  const skipped = [
    intents > 0 || inputs > 0 ? `${intents} intent(s) with a single phrasing (${inputs} input(s))` : "",
    followUpInputs > 0 ? `${followUpInputs} context follow-up input(s)` : "",
  ].filter((s) => s !== "");
  return [
    `cross-validation ${cv.folds} folds, seed ${cv.seed}: ${cv.heldOut} phrasings of ${cv.intents} intents, each held out of one fold`,
    ...(skipped.length > 0 ? [`not tested       ${skipped.join(", ")}`] : []),
  ];
}

function summaryLines(report: EvalReport): string[] {
  const statuses = Object.entries(report.statuses)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([status, count]) => `${status} ${count}`)
    .join(", ");
  const lines = [
    `cases            ${report.cases}`,
    `accuracy         ${pct(report.accuracy)} (${report.correct}/${report.cases})`,
    `precision        ${pct(report.precision)} of answered (${report.answeredCorrect}/${report.answered})`,
    `rejection rate   ${pct(report.rejectionRate)} (${report.rejected}/${report.cases})`,
  ];
  if (report.asked > 0) lines.push(`asked            ${report.asked}/${report.cases} asked for what the request lacked, naming the expected intent (not errors, not in precision)`);
  if (report.inScope.cases > 0 && report.offTopic.cases > 0) lines.push(`in scope         ${ratio(report.inScope)}`);
  if (report.offTopic.cases > 0) lines.push(`off-topic        ${ratio(report.offTopic)} rejected`);
  if (report.reachable.cases !== report.cases - report.offTopic.cases) {
    const r = report.reachable;
    lines.push(`reachable        ${ratio(r)}; precision ${pct(r.precision)} of answered (${r.answeredCorrect}/${r.answered}) — cases whose expected answer exists in the bundle`);
  }
  if (report.suggested.rejected > 0) {
    const { rejected, offered } = report.suggested;
    lines.push(`suggested        ${offered}/${rejected} rejected cases offered the expected answer among their suggestions`);
  }
  if (report.permission.compared > 0) {
    lines.push(`permission       ${report.permission.agree}/${report.permission.compared} correct answers have the expected permission`);
  }
  lines.push(`statuses         ${statuses}`);
  lines.push(`latency          p50 ${report.latencyUs.p50} µs, p90 ${report.latencyUs.p90} µs, p99 ${report.latencyUs.p99} µs`);
  if (report.averages.intents > 0) {
    const { macro, weighted } = report.averages;
    const prf = (m: typeof macro) => `precision ${pct(m.precision)}, recall ${pct(m.recall)}, F1 ${pct(m.f1)}`;
    lines.push(`macro avg        ${prf(macro)} over ${report.averages.intents} intents`);
    lines.push(`weighted avg     ${prf(weighted)} over ${report.averages.support} cases that expect an intent`);
  }
  return lines;
}

/** Lowest F1 first; then the most cases, then the id. */
function worstFirst(a: IntentMetrics, b: IntentMetrics): number {
  return a.f1 - b.f1 || b.support - a.support || (a.intent < b.intent ? -1 : a.intent > b.intent ? 1 : 0);
}

function intentLines(report: EvalReport, limit: number): string[] {
  const shown = [...report.intents].sort(worstFirst).slice(0, limit);
  if (shown.length === 0) return [];
  const rows = shown.map((m) => [truncate(m.intent, NAME_WIDTH), String(m.support), String(m.answered), pct(m.precision), pct(m.recall), pct(m.f1)]);
  return [
    "",
    heading("lowest F1", shown.length, report.intents.length, "intents", "--show-intents"),
    ...formatTable(["intent", "support", "answered", "precision", "recall", "F1"], rows, ["left", "right", "right", "right", "right", "right"]),
  ];
}

function confusionLines(report: EvalReport, limit: number): string[] {
  const shown = report.confusions.slice(0, limit);
  if (shown.length === 0) return [];
  const rows = shown.map((c) => [
    String(c.count),
    `${truncate(c.expected ?? "(off-topic)", NAME_WIDTH)} → ${truncate(c.answered, NAME_WIDTH)}`,
    JSON.stringify(truncate(c.example, EXAMPLE_WIDTH)),
  ]);
  return [
    "",
    heading("most confused", shown.length, report.confusions.length, "pairs", "--show-confusions"),
    ...formatTable(["count", "expected → answered", "example"], rows, ["right", "left", "left"]),
  ];
}

/** A stacked bar: `#` correct, `x` wrong, `?` asked, `.` rejected, scaled so the fullest bin is BAR_WIDTH long. */
function bar(bin: ConfidenceBin, fullest: number): string {
  const width = (n: number) => (fullest === 0 ? 0 : Math.round((n * BAR_WIDTH) / fullest));
  return "#".repeat(width(bin.correct)) + "x".repeat(width(bin.wrong)) + "?".repeat(width(bin.asked)) + ".".repeat(width(bin.rejected));
}

function histogramLines(report: EvalReport): string[] {
  const bins = report.confidenceHistogram;
  if (report.cases === 0) return [];
  const fullest = Math.max(...bins.map((b) => b.correct + b.wrong + b.asked + b.rejected));
  const rows = bins.map((b) => [`${b.from.toFixed(1)}–${b.to.toFixed(1)}`, String(b.correct), String(b.wrong), String(b.asked), String(b.rejected), bar(b, fullest)]);
  return [
    "",
    "confidence (# correct, x wrong, ? asked, . rejected; an abstention counts its best suggestion's score):",
    ...formatTable(["bin", "correct", "wrong", "asked", "rejected", ""], rows, ["left", "right", "right", "right", "right", "left"]),
  ];
}

function failureLines(report: EvalReport, limit: number): string[] {
  const shown = report.failures.slice(0, limit);
  if (shown.length === 0) return [];
  return [
    "",
    heading("failures", shown.length, report.failures.length, "failures", "--show-failures"),
    ...shown.map((f) => {
      const got = f.status === "rejected" ? "rejected" : `${f.status} ${f.intent ?? ""}`.trim();
      const where = f.file === undefined ? `line ${f.line}` : `${f.file}:${f.line}`;
      return `  ${where}: ${JSON.stringify(f.input)} expected ${f.expected}, got ${got}`;
    }),
  ];
}

export function formatReport(report: EvalReport & { crossValidation?: CrossValidationSummary }, limits: ReportLimits): string {
  const lines = [
    ...(report.crossValidation ? crossValidationLines(report.crossValidation) : []),
    ...summaryLines(report),
    ...intentLines(report, limits.intents),
    ...confusionLines(report, limits.confusions),
    ...histogramLines(report),
    ...failureLines(report, limits.failures),
  ];
  return lines.join("\n") + "\n";
}
