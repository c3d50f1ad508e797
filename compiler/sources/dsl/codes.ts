// Diagnostic codes of the rule DSL, each written once in codes.json. DSL0xx: lexing and parsing;
// DSL1xx: meaning (lowering).
import { codeArea } from "../../diagnostics.js";
import table from "./codes.json" with { type: "json" };

export const { codes: DSL_CODES, catalogue: DSL_CATALOGUE } = codeArea(table);
