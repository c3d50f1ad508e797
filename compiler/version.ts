// The compiler's version, recorded in every bundle it writes.
export const COMPILER_VERSION = "0.1.0";
