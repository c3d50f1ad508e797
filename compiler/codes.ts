// The lint catalogue: every diagnostic code ndfc reports, its default severity and what it means.
// Codes are stable: scripts and SARIF consumers key on them. Each area writes its codes once, in a
// JSON table beside the code that reports them (sources/ndf, sources/dsl, tcs; the check passes'
// in check-codes.json), as TypeScript's diagnosticMessages.json does; CODES and CATALOGUE derive
// from the tables.
import table from "./check-codes.json" with { type: "json" };
import { codeArea, type CodeInfo } from "./diagnostics.js";
import { DSL_CATALOGUE } from "./sources/dsl/codes.js";
import { NDF_CATALOGUE, NDF_CODES } from "./sources/ndf/codes.js";
import { TCS_CATALOGUE } from "./tcs/codes.js";

/** The check passes' codes: references (REF), conflicts (CON), regexes (RGX), rendering (RND). */
const checks = codeArea(table);

/** The loader's and the check passes' codes by name (the DSL's are DSL_CODES, the TCS rules' TCS_CODES). */
export const CODES = { ...NDF_CODES, ...checks.codes };

/** Every code, in catalogue order: NDF, checks, DSL, TCS. */
export const CATALOGUE: CodeInfo[] = [...NDF_CATALOGUE, ...checks.catalogue, ...DSL_CATALOGUE, ...TCS_CATALOGUE];
