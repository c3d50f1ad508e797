// The text form of an evaluation report (`ndfc eval` without --json).
import type { EvalReport, Rate } from "./score.js";

function pct(x: number): string {
  return `${(x * 100).toFixed(1)} %`;
}

function ratio(r: Rate): string {
  return `${pct(r.accuracy)} (${r.correct}/${r.cases})`;
}

export function formatReport(report: EvalReport, showFailures: number): string {
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
  const shown = report.failures.slice(0, showFailures);
  if (shown.length > 0) {
    lines.push("", `failures (${shown.length} of ${report.failures.length}):`);
    for (const f of shown) {
      const got = f.status === "rejected" ? "rejected" : `${f.status} ${f.intent ?? ""}`.trim();
      lines.push(`  line ${f.line}: ${JSON.stringify(f.input)} expected ${f.expected}, got ${got}`);
    }
  }
  return lines.join("\n") + "\n";
}
