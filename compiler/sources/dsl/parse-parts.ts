// What the parser hands the AST builder: for each grammar rule it entered, the tokens and the
// sub-rules it matched. A rule's parts are attached to its parent before the rule runs, so when
// error recovery cuts a rule short its partial parts are still there, as a CST's would be; and
// they are plain typed records, a fraction of the memory of a generic CST (a 16k-rule file's CST
// took 130 MB, all of it alive until the AST was built).
import type { IToken } from "./chevrotain.js";

/** The statements of the file (`program`), of a `do … end` block or of a `{ … }` block. */
export interface BodyParts {
  rule: "program" | "doBody" | "curlyBody";
  statements: StatementParts[];
  /** Tokens that cannot start a statement there, skipped. */
  stray: IToken[];
}

export interface StatementParts {
  head?: HeadParts;
  parens?: ParenParts;
  /** Paren-less arguments. */
  list?: ArgumentListParts;
  block?: BlockParts;
}

export interface HeadParts {
  name?: IToken;
  /** `define` in `RuleSet.define`. */
  method?: IToken;
}

export interface ParenParts {
  list?: ArgumentListParts;
}

export interface ArgumentListParts {
  arguments: ArgumentParts[];
}

/** `key: v` (labelled), `v`, or `k => v` (value and rocketValue; `equals` when written `k = v`). */
export interface ArgumentParts {
  labelled?: LabelledParts;
  value?: ExpressionParts;
  rocketValue?: ExpressionParts;
  equals?: IToken;
}

export interface LabelledParts {
  label?: IToken;
  expression?: ExpressionParts;
}

/** One of: a literal token, an array, a hash, a call used as a value. */
export interface ExpressionParts {
  token?: IToken;
  array?: ArrayParts;
  hash?: HashParts;
  valueCall?: ValueCallParts;
}

export interface ArrayParts {
  open?: IToken;
  items: ExpressionParts[];
  commas: IToken[];
}

export interface HashParts {
  open?: IToken;
  arguments: ArgumentParts[];
  commas: IToken[];
}

export interface ValueCallParts {
  head?: HeadParts;
  parens?: ParenParts;
}

export interface BlockParts {
  /** `do` or `{`. */
  open?: IToken;
  body?: BodyParts;
}
