// The compiler's public API (`import { lintSources, compileNpc } from "ndfc"`).
export { lintSources, type LintResult } from "./lint.js";
export { loadSources, SourceInputError, type LoadedSources } from "./sources/load.js";
export { compileNpc, type CompileResult, type CompileSummary } from "./compile.js";
export { DiagnosticBag, type Diagnostic, type Severity } from "./diagnostics.js";
export { CATALOGUE, CODES } from "./codes.js";
export { NDF_SCHEMAS } from "./sources/ndf/schemas.js";
export { COMPILER_VERSION } from "./version.js";
export type * from "./ir/types.js";
