// The answer's face: an emoji from the session's sentiment counts so far, the first rule that holds:
//   | condition                                              | emoji |
//   |--------------------------------------------------------|-------|
//   | expletives > 0 and expletives ≥ encouraging + thanking | 😠    |
//   | discouraging > encouraging + thanking                  | 😞    |
//   | thanking > 0 and thanking ≥ encouraging                | 🤗    |
//   | encouraging > 0                                        | 😊    |
//   | interjections > 0                                      | 🤔    |
//   | otherwise                                              | 🙂    |

import type { Sentiment } from "../response.js";

export function emojiFor(s: Sentiment): string {
  if (s.expletives > 0 && s.expletives >= s.encouraging + s.thanking) return "😠";
  if (s.discouraging > s.encouraging + s.thanking) return "😞";
  if (s.thanking > 0 && s.thanking >= s.encouraging) return "🤗";
  if (s.encouraging > 0) return "😊";
  if (s.interjections > 0) return "🤔";
  return "🙂";
}
