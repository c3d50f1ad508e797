// Diagnostic codes of the rule DSL. DSL0xx: lexing and parsing; DSL1xx: meaning (lowering).
import type { CodeInfo } from "../../passes/codes.js";

export const DSL_CODES = {
  unexpectedCharacter: "DSL001",
  unterminatedString: "DSL002",
  unterminatedRegex: "DSL003",
  unexpectedToken: "DSL004",
  unclosedBlock: "DSL005",
  strayToken: "DSL006",
  badEscape: "DSL007",
  nestingTooDeep: "DSL008",
  unknownMethod: "DSL101",
  unboundSlot: "DSL102",
  stepOutsideChain: "DSL103",
  resolveOutsideQuery: "DSL104",
  duplicatePattern: "DSL105",
  unknownPermission: "DSL106",
  badArgument: "DSL107",
  badPattern: "DSL108",
  badRegexFlag: "DSL109",
  expansionCapped: "DSL110",
  duplicateSetting: "DSL111",
  badSynonym: "DSL112",
} as const;

/** The DSL's part of the lint catalogue (SARIF rules, documentation). */
export const DSL_CATALOGUE: CodeInfo[] = [
  { code: DSL_CODES.unexpectedCharacter, severity: "error", title: "A character the rule DSL does not use." },
  { code: DSL_CODES.unterminatedString, severity: "error", title: "A string is not closed on its line." },
  { code: DSL_CODES.unterminatedRegex, severity: "error", title: "A regex is not closed on its line." },
  { code: DSL_CODES.unexpectedToken, severity: "error", title: "A token where the grammar expects another (a missing ')' or ',')." },
  { code: DSL_CODES.unclosedBlock, severity: "error", title: "A do, {, ( or [ that is never closed." },
  { code: DSL_CODES.strayToken, severity: "error", title: "A stray token: end with no open block, } in a do block, a value where a statement starts." },
  { code: DSL_CODES.badEscape, severity: "error", title: "An invalid escape, or string interpolation (write <||slot||> instead)." },
  { code: DSL_CODES.nestingTooDeep, severity: "error", title: "Blocks, arrays and hashes nested deeper than a rule file needs (64 levels)." },
  { code: DSL_CODES.unknownMethod, severity: "error", title: "An unknown method, or a method where it does not belong." },
  { code: DSL_CODES.unboundSlot, severity: "error", title: "A slot used in a tool or command that the rule's patterns do not capture." },
  { code: DSL_CODES.stepOutsideChain, severity: "error", title: "A step outside a chain." },
  { code: DSL_CODES.resolveOutsideQuery, severity: "error", title: "A resolve outside a query." },
  { code: DSL_CODES.duplicatePattern, severity: "error", title: "Two rules with the same pattern: only one could ever answer." },
  { code: DSL_CODES.unknownPermission, severity: "error", title: "A permission other than :ask, :yolo or :auto." },
  { code: DSL_CODES.badArgument, severity: "error", title: "An argument of the wrong kind for its method." },
  { code: DSL_CODES.badPattern, severity: "error", title: "A malformed rule pattern (unclosed group, stray |, a slot twice)." },
  { code: DSL_CODES.badRegexFlag, severity: "error", title: "A regex flag other than i and m." },
  { code: DSL_CODES.expansionCapped, severity: "warning", title: "A pattern expands to more phrasings or paths than kept." },
  { code: DSL_CODES.duplicateSetting, severity: "warning", title: "A setting given twice for one rule (the first stays), or a type defined twice." },
  { code: DSL_CODES.badSynonym, severity: "error", title: "A malformed synonym declaration." },
];
