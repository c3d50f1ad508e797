// Diagnostic codes of the NDF loader (directory layout, JSON, schema, entries): NDF0xx, each written
// once in codes.json.
import { codeArea } from "../../diagnostics.js";
import table from "./codes.json" with { type: "json" };

export const { codes: NDF_CODES, catalogue: NDF_CATALOGUE } = codeArea(table);
