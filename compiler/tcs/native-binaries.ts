// Programs whose option parser (getopt or compatible) ends option parsing at `--`, so a user value
// after `--` can never be read as an option (`-rf`, `--help`, `--output=/etc/passwd`).
// Left out on purpose: `echo` (prints `--`), `find` (options are its expression), `printf` (its
// first operand is a format), `[`/`test`, `dig`/`nslookup`/`curl`/`zip` (own parsers), `git` and
// `docker` (`--` separates paths or commands there, with other meanings).
// Each entry lists the short options that take their value as the next word (`-n 5`).

export const NATIVE_BINARIES: ReadonlyMap<string, string> = new Map([
  ["rm", ""], ["rmdir", ""], ["unlink", ""], ["shred", "nsu"], ["touch", "drt"], ["cat", ""], ["tac", "s"],
  ["grep", "efmABCdD"], ["egrep", "efmABCdD"], ["fgrep", "efmABCdD"],
  ["mkdir", "m"], ["cp", "tS"], ["mv", "tS"], ["ln", "tS"], ["install", "mogtS"],
  ["ls", "IwTp"], ["chmod", ""], ["chown", ""], ["chgrp", ""],
  ["head", "nc"], ["tail", "ncs"], ["du", "dBtX"], ["df", "Btx"], ["stat", "c"], ["wc", ""],
  ["sort", "ktoST"], ["uniq", "fsw"], ["diff", "ILxXDF"], ["cmp", "in"], ["comm", ""],
  ["file", "mfF"], ["realpath", ""], ["readlink", ""], ["basename", "s"], ["dirname", ""], ["tee", ""],
  ["sed", "efl"], ["nl", "bdfhilnsvw"], ["cut", "dfcb"], ["split", "lbnCa"], ["paste", "d"], ["join", "jtoe12"],
  ["tr", ""], ["fold", "w"], ["fmt", "wp"], ["expand", "t"], ["shuf", "nio"], ["iconv", "fto"], ["od", "AjNtw"],
  ["md5sum", ""], ["sha1sum", ""], ["sha256sum", ""], ["sha512sum", ""], ["b2sum", "l"], ["cksum", "a"],
  ["truncate", "sr"], ["base64", "w"], ["strings", "nt"],
  ["tar", "fCTXbN"], ["gzip", "S"], ["gunzip", "S"], ["zcat", "S"], ["xz", "STM"], ["bzip2", ""],
  ["ssh", "bcDEeFIiJLlmOoQRSWwBp"], ["scp", "cFiJloPS"], ["ping", "ciIlmMpQsStTwW"], ["kill", "sn"],
  ["chattr", "pv"], ["mktemp", "p"],
]);
