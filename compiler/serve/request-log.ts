// One log line per request of `ndfc serve`: time, method, path (no query), status and duration.
// The message a user sent is personal data: it is added only with --log-messages.

export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  /** The response was cut off (the client hung up, or the server destroyed the socket). */
  aborted: boolean;
  ms: number;
  /** The user message answered, when the operator asked for it. */
  message?: string;
}

export function formatRequestLine(entry: RequestLogEntry, at: Date): string {
  const status = entry.aborted ? `${entry.status} aborted` : String(entry.status);
  const message = entry.message === undefined ? "" : ` message=${JSON.stringify(entry.message)}`;
  return `${at.toISOString()} ${entry.method} ${entry.path} ${status} ${entry.ms.toFixed(1)}ms${message}`;
}
