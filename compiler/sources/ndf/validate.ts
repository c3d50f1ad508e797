// Schema validation with ajv; each violation becomes a diagnostic at the offending value.
// ajv is loaded on the first NDF file validated: it takes ~60 ms to load, which linting rule DSL
// files alone never needs.
import { createRequire } from "node:module";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { DiagnosticBag } from "../../diagnostics.js";
import { NDF_CODES } from "./codes.js";
import { locOf, nodeAtPointer, toValue, type JsonNode } from "./json-ast.js";
import { NDF_SCHEMAS, type SchemaKind } from "./schemas.js";

let ajv: Ajv | undefined;
const validators = new Map<SchemaKind, ValidateFunction>();

function validatorFor(kind: SchemaKind): ValidateFunction {
  let validate = validators.get(kind);
  if (!validate) {
    // No meta-schema check of ndfc's own schemas on every run (~40 ms): test/lint/cli-formats.test.ts does it.
    ajv ??= new (createRequire(import.meta.url)("ajv") as typeof import("ajv")).Ajv({ allErrors: true, strict: false, validateSchema: false });
    validate = ajv.compile(NDF_SCHEMAS[kind]);
    validators.set(kind, validate);
  }
  return validate;
}

/**
 * Validates a parsed file; returns true when it has the shape the loader needs. `value` is the
 * file's plain value: the loader passes JSON.parse of the text, which is many times faster than
 * rebuilding it from the tree (the tree is read only to place the violations).
 */
export function validateAgainstSchema(kind: SchemaKind, root: JsonNode, bag: DiagnosticBag, value: unknown = toValue(root)): boolean {
  const validate = validatorFor(kind);
  if (validate(value)) return true;
  for (const error of relevantErrors(validate.errors ?? [])) {
    const node = nodeAtPointer(root, error.instancePath);
    bag.error(NDF_CODES.schema, describe(error), locOf(node));
  }
  return false;
}

/** `oneOf` reports every branch's failure; keep the summary and drop the branch noise under it. */
function relevantErrors(errors: ErrorObject[]): ErrorObject[] {
  const oneOfPaths = new Set(errors.filter((e) => e.keyword === "oneOf").map((e) => e.instancePath));
  // An `if` failure only repeats that its `then` or `else` branch failed, which is reported itself.
  const kept = errors.filter((e) => e.keyword !== "if" && (e.keyword === "oneOf" || !isUnderOneOf(e, oneOfPaths)));
  const seen = new Set<string>();
  return kept.filter((e) => {
    const key = `${e.instancePath}|${e.keyword}|${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function isUnderOneOf(error: ErrorObject, oneOfPaths: Set<string>): boolean {
  return [...oneOfPaths].some((path) => error.instancePath.startsWith(path) && error.schemaPath.includes("/oneOf/"));
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === "" ? "the file" : `"${error.instancePath.slice(1).replaceAll("/", ".")}"`;
  switch (error.keyword) {
    case "required":
      return `${where} is missing the required key "${String(error.params.missingProperty)}"`;
    case "enum":
      return `${where} must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "const":
      return `${where} must be ${JSON.stringify(error.params.allowedValue)}`;
    case "additionalProperties":
      return `${where} has an unknown key "${String(error.params.additionalProperty)}"`;
    case "oneOf":
      return `${where} must be a string or a list of strings of the right form`;
    case "pattern":
      return `${where} must look like <||name||>`;
    case "propertyNames":
      return `${where} has a key that is not of the form <||name||>`;
    default:
      return `${where} ${error.message ?? "is invalid"}`;
  }
}
