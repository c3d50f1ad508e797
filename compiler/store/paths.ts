// Where the user's state lives by default: $XDG_DATA_HOME/ndfc/ndfc.db, else ~/.local/share/ndfc/ndfc.db.
import { homedir } from "node:os";
import { join } from "node:path";

export function defaultStorePath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_DATA_HOME;
  const base = xdg !== undefined && xdg !== "" ? xdg : join(homedir(), ".local", "share");
  return join(base, "ndfc", "ndfc.db");
}
