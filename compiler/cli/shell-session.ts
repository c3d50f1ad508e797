// One real shell for `ndfc chat --exec`: every command of the conversation runs in the same
// /bin/sh process, so what one step sets (cd, NDFC_IT="foo" after "create folder foo") is there
// for the next ("delete it"). Each command is followed by a marker line carrying its exit status,
// made of a random token the command cannot guess; output before the marker is the command's.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomBytes } from "node:crypto";

export class ShellSession {
  private readonly shell: ChildProcessWithoutNullStreams;
  private readonly marker = `__ndfc_done_${randomBytes(8).toString("hex")}__`;
  private buffer = "";
  private waiting: ((code: number) => void) | null = null;
  private exited = false;

  constructor(private readonly output: NodeJS.WritableStream) {
    this.shell = spawn("/bin/sh", [], { stdio: ["pipe", "pipe", "pipe"] });
    this.shell.stdout.setEncoding("utf8");
    this.shell.stdout.on("data", (chunk: string) => this.read(chunk));
    this.shell.stderr.on("data", (chunk: Buffer) => output.write(chunk));
    this.shell.on("close", () => {
      this.exited = true;
      this.waiting?.(127);
      this.waiting = null;
    });
    this.shell.on("error", () => undefined);
  }

  /** Runs `command` in the shell; resolves to its exit status (127 once the shell is gone). */
  run(command: string): Promise<number> {
    if (this.exited) return Promise.resolve(127);
    return new Promise((done) => {
      this.waiting = done;
      // The command on its own lines, so a trailing comment or an open here-doc cannot eat the marker's printf.
      this.shell.stdin.write(`${command}\nprintf '\\n%s %d\\n' '${this.marker}' "$?"\n`);
    });
  }

  close(): void {
    if (!this.exited) this.shell.stdin.end();
  }

  private read(chunk: string): void {
    this.buffer += chunk;
    const at = this.buffer.indexOf(`\n${this.marker} `);
    if (at === -1) {
      // Everything but a possible start of the marker goes out now.
      const keep = Math.max(0, this.buffer.length - this.marker.length - 2);
      this.output.write(this.buffer.slice(0, keep));
      this.buffer = this.buffer.slice(keep);
      return;
    }
    const end = this.buffer.indexOf("\n", at + 1 + this.marker.length);
    if (end === -1) return;
    this.output.write(this.buffer.slice(0, at));
    const code = Number(this.buffer.slice(at + 1 + this.marker.length, end));
    this.buffer = this.buffer.slice(end + 1);
    const done = this.waiting;
    this.waiting = null;
    done?.(Number.isInteger(code) ? code : 1);
  }
}
