// The lint catalogue: every diagnostic code ndfc reports, its default severity and what it means.
// Codes are stable: scripts and SARIF consumers key on them.
import type { CodeInfo } from "../diagnostics.js";
import { DSL_CATALOGUE } from "../sources/dsl/codes.js";
import { TCS_CATALOGUE } from "../tcs/codes.js";

export const CODES = {
  ioError: "NDF001",
  jsonSyntax: "NDF002",
  schema: "NDF003",
  unknownKey: "NDF004",
  misnamedFile: "NDF005",
  ignoredFile: "NDF006",
  missingConfig: "NDF007",
  unreachableEntry: "NDF008",
  duplicateIntentName: "NDF009",
  undefinedVocabTag: "REF001",
  undefinedType: "REF002",
  unfillableTag: "REF003",
  undefinedList: "REF004",
  duplicateInput: "CON001",
  sanitizedInput: "CON002",
  repeatedInput: "CON003",
  shadowedTemplate: "CON004",
  shadowedListValue: "CON005",
  invalidRegex: "RGX001",
  nonJsRegex: "RGX002",
  redosExponential: "RGX003",
  redosPolynomial: "RGX004",
  wordListExpansion: "RND001",
} as const;

export const CATALOGUE: CodeInfo[] = [
  { code: CODES.ioError, severity: "error", title: "A file or directory cannot be read (missing, too large, not UTF-8)." },
  { code: CODES.jsonSyntax, severity: "error", title: "The file is not valid JSON." },
  { code: CODES.schema, severity: "error", title: "A value does not have the shape the NDF format requires." },
  { code: CODES.unknownKey, severity: "warning", title: "An unknown key that looks like a misspelled NDF key." },
  { code: CODES.misnamedFile, severity: "warning", title: "A file whose name NDF does not recognise (dataset.json instead of dataset_*.json)." },
  { code: CODES.ignoredFile, severity: "info", title: "A JSON file in the dataset tree that is not an NDF file and is not loaded." },
  { code: CODES.missingConfig, severity: "error", title: "The NPC directory has no usable config.json." },
  { code: CODES.unreachableEntry, severity: "warning", title: "An entry with neither input nor structure: no message can reach it." },
  { code: CODES.duplicateIntentName, severity: "warning", title: "Two entries declare the same intent name." },
  { code: CODES.undefinedVocabTag, severity: "warning", title: "A template uses a vocab tag that vocabulary/templates.json does not define: the node never matches." },
  { code: CODES.undefinedType, severity: "warning", title: "A template node has a type that types.json does not define: the node never matches." },
  { code: CODES.unfillableTag, severity: "warning", title: "A <||tag||> in a response, thinking, description or tool that nothing fills: it renders empty." },
  { code: CODES.undefinedList, severity: "error", title: "A list slot names a value list nobody defines: the slot never matches." },
  { code: CODES.duplicateInput, severity: "warning", title: "One input is given to two different intents: only one can answer it." },
  { code: CODES.sanitizedInput, severity: "warning", title: "An input contains a noise-list word that sanitizing strips, so the stored phrase never matches as written." },
  { code: CODES.repeatedInput, severity: "info", title: "The same input is listed twice in one entry." },
  { code: CODES.shadowedTemplate, severity: "warning", title: "A template path that never wins: an earlier path matches every message it matches, with the same priority." },
  { code: CODES.shadowedListValue, severity: "warning", title: "A spoken form listed twice in one value list: only its first value is ever captured." },
  { code: CODES.invalidRegex, severity: "error", title: "A type regex that ndfc's runtime regex engine (linear-time, no backtracking) cannot compile, with the construct: \\b, lookaround, backreferences, a syntax error." },
  { code: CODES.nonJsRegex, severity: "info", title: "A type regex ndfc runs (Python spellings such as (?P<name>…) and (?i:…) included) that JavaScript's RegExp rejects: a note for tools reusing it." },
  { code: CODES.redosExponential, severity: "info", title: "A type regex that backtracks exponentially in backtracking engines (Python's re, RegExp); ndfc's runtime is linear-time, so a note for other engines." },
  { code: CODES.redosPolynomial, severity: "info", title: "A type regex that backtracks polynomially in backtracking engines; a note for other engines." },
  { code: CODES.wordListExpansion, severity: "warning", title: "A word list refers to itself (directly or through other lists) or expands past what one answer renders: its text is cut." },
  ...DSL_CATALOGUE,
  ...TCS_CATALOGUE,
];
